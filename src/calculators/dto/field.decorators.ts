import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNumber,
  IsString,
  registerDecorator,
  ValidateIf,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import { IsCalendarDate } from '../../common/validation/calendar-date';

/**
 * Field decorators for calculator request bodies. Every field is optional (a missing field takes
 * its documented default) but a present field is checked strictly: no type coercion, and `null`
 * only where the interface allows it. Each decorator writes the OpenAPI schema and the
 * class-validator rules from one description, so the two cannot drift apart.
 */

/** Absent = default. `null` is validated like any other value (and so rejected) unless nullable. */
const present = (nullable: boolean) =>
  ValidateIf((_: object, value: unknown) => value !== undefined && !(nullable && value === null));

interface NumberField {
  description: string;
  default: number | null;
  example?: number | null;
  /** Inclusive lower bound. */
  min?: number;
  /** Exclusive lower bound (0 < x). */
  greaterThan?: number;
  /** Inclusive upper bound. */
  max?: number;
  integer?: boolean;
  nullable?: boolean;
}

export function NumberField(opts: NumberField): PropertyDecorator {
  const schema: ApiPropertyOptions = {
    required: false,
    type: opts.integer ? 'integer' : 'number',
    description: opts.description,
    default: opts.default,
    example: opts.example ?? opts.default,
    nullable: opts.nullable ?? false,
  };
  if (opts.min !== undefined) schema.minimum = opts.min;
  if (opts.greaterThan !== undefined) Object.assign(schema, { minimum: opts.greaterThan, exclusiveMinimum: true });
  if (opts.max !== undefined) schema.maximum = opts.max;
  const decorators: PropertyDecorator[] = [
    ApiProperty(schema),
    present(opts.nullable ?? false),
    opts.integer
      ? IsInt({ message: opts.nullable ? 'must be a whole number or null' : 'must be a whole number' })
      : IsNumber(
          { allowNaN: false, allowInfinity: false },
          { message: opts.nullable ? 'must be a number or null' : 'must be a number' },
        ),
  ];
  if (opts.min !== undefined || opts.greaterThan !== undefined || opts.max !== undefined) {
    decorators.push(InRange(opts.min, opts.greaterThan, opts.max));
  }
  return applyDecorators(...decorators);
}

/** One message naming the whole allowed range, only for values that are numbers at all. */
function InRange(min: number | undefined, greaterThan: number | undefined, max: number | undefined): PropertyDecorator {
  const lower =
    greaterThan !== undefined ? `greater than ${greaterThan}` : min !== undefined ? `at least ${min}` : null;
  const upper = max !== undefined ? `at most ${max}` : null;
  const message = `must be ${[lower, upper].filter(Boolean).join(' and ')}`;
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name: 'inRange',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message },
      validator: {
        validate: (v: unknown) =>
          typeof v !== 'number' ||
          !Number.isFinite(v) ||
          ((min === undefined || v >= min) &&
            (greaterThan === undefined || v > greaterThan) &&
            (max === undefined || v <= max)),
      },
    });
}

export function BooleanField(opts: { description: string; default: boolean }): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      required: false,
      type: 'boolean',
      description: opts.description,
      default: opts.default,
      example: opts.default,
    }),
    present(false),
    IsBoolean({ message: 'must be true or false' }),
  );
}

export function EnumField<T extends string>(opts: {
  description: string;
  values: readonly T[];
  default: T;
}): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      required: false,
      enum: [...opts.values],
      description: opts.description,
      default: opts.default,
      example: opts.default,
    }),
    present(false),
    IsIn([...opts.values], { message: `must be one of ${opts.values.join(', ')}` }),
  );
}

export function TextField(opts: {
  description: string;
  default: string;
  example?: string;
  maxLength?: number;
  format?: string;
}): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      required: false,
      type: 'string',
      description: opts.description,
      default: opts.default,
      example: opts.example ?? opts.default,
      ...(opts.maxLength !== undefined ? { maxLength: opts.maxLength } : {}),
      ...(opts.format ? { format: opts.format } : {}),
    }),
    present(false),
    IsString({ message: 'must be a string' }),
  );
}

export function DateField(opts: { description: string; default: string }): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      required: false,
      type: 'string',
      format: 'date',
      description: opts.description,
      default: opts.default,
      example: opts.default,
    }),
    present(false),
    IsCalendarDate(),
  );
}

/**
 * A rule that needs another field, with that field's default when it is absent. Runs only when
 * this field is valid on its own; `check` answers an error message or null.
 */
export function CrossFieldRule(
  name: string,
  check: (value: unknown, body: Record<string, unknown>) => string | null,
  options?: ValidationOptions,
): PropertyDecorator {
  return (target: object, propertyName: string | symbol) =>
    registerDecorator({
      name,
      target: target.constructor,
      propertyName: propertyName as string,
      options: {
        ...options,
        message: (args: ValidationArguments) =>
          check(args.value, args.object as Record<string, unknown>) ?? 'is not valid',
      },
      validator: {
        validate: (value: unknown, args: ValidationArguments) =>
          check(value, args.object as Record<string, unknown>) === null,
      },
    });
}
