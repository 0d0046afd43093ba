import { Matches } from 'class-validator';

const NOT_BLANK_MESSAGE = 'must not be blank';

/**
 * Text with at least one character that is not white space: a name, description, note or password of
 * only spaces (or tabs, newlines) is refused with "must not be blank". Pair it with the field's type
 * and length checks; a non-string fails their message, not this one.
 */
export function NotBlank(): PropertyDecorator {
  return Matches(/\S/, { message: NOT_BLANK_MESSAGE });
}
