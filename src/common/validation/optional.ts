import { ValidateIf } from 'class-validator';

/**
 * A body member that may be absent; when present it is validated, null included. class-validator's
 * IsOptional skips null as well, so `{"lpReportId": null}` reached the service as null (a 500, or a
 * null written); with this it is a 400 naming the field ("must be a string"). IsOptional stays only
 * on members the schema says are nullable (a test holds body DTOs to that).
 */
export const Optional = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);
