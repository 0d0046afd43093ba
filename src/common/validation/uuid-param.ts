import { ParseUUIDPipe } from '@nestjs/common';
import { invalidParameter } from '../errors/problem';

/** A path parameter that must be a UUID: 400 naming `field` otherwise. */
export const uuidParam = (field: string) =>
  new ParseUUIDPipe({ exceptionFactory: () => invalidParameter(field, 'must be a UUID') });
