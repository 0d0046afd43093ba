import { buildMessage, ValidateBy, type ValidationOptions } from 'class-validator';

/** Unicode code points, as PostgreSQL's `length()` counts text. */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * At most `max` characters as PostgreSQL counts them, for text stored in a column with a length
 * check. class-validator's `Length` does not count variation selectors (U+FE0E, U+FE0F), so 200
 * emoji with one each passed `@Length(1, 200)` and failed the column's check as 400 characters (a 500).
 */
export function MaxCodePoints(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxCodePoints',
      constraints: [max],
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || codePointLength(value) <= max,
        defaultMessage: buildMessage((each) => `${each}$property must be at most ${max} characters`, options),
      },
    },
    options,
  );
}
