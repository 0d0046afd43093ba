import { Body, Injectable, PipeTransform, Query } from '@nestjs/common';
import { ProblemError } from '../errors/problem';

/** Each member of an input a route does not take, as a 400 naming it. */
function refuseMembers(value: unknown): void {
  const names = Object.keys((value as Record<string, unknown>) ?? {});
  if (names.length > 0) {
    throw new ProblemError(
      'invalid_parameter',
      names.map((n) => `${n}: is not a known field`).join('; '),
      names.map((field) => ({ field, message: 'is not a known field' })),
    );
  }
}

/** Parameter-less endpoints still refuse unknown query parameters (400 naming each one). */
@Injectable()
export class NoQueryParamsPipe implements PipeTransform {
  transform(value: unknown): unknown {
    refuseMembers(value);
    return value;
  }
}

/** Body-less POST endpoints refuse a body with members (400 naming each one); no body or `{}` is fine. */
@Injectable()
export class NoBodyPipe implements PipeTransform {
  transform(value: unknown): unknown {
    if (value === undefined || value === null) return value;
    if (typeof value !== 'object' || Array.isArray(value))
      throw new ProblemError('invalid_request', 'this operation takes no body', [
        { field: 'body', message: 'must be empty' },
      ]);
    refuseMembers(value);
    return value;
  }
}

export const NoQuery = () => Query(new NoQueryParamsPipe());
export const NoBody = () => Body(new NoBodyPipe());
