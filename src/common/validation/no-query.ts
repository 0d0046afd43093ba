import { Injectable, PipeTransform, Query } from '@nestjs/common';
import { ProblemError } from '../errors/problem';

/** Parameter-less endpoints still refuse unknown query parameters (400 naming each one). */
@Injectable()
export class NoQueryParamsPipe implements PipeTransform {
  transform(value: unknown): unknown {
    const names = Object.keys((value as Record<string, unknown>) ?? {});
    if (names.length > 0) {
      throw new ProblemError(
        'invalid_parameter',
        names.map((n) => `${n}: is not a known field`).join('; '),
        names.map((field) => ({ field, message: 'is not a known field' })),
      );
    }
    return value;
  }
}

export const NoQuery = () => Query(new NoQueryParamsPipe());
