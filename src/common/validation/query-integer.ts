import { Transform } from 'class-transformer';

const DECIMAL_INTEGER = /^-?\d{1,15}$/;

/**
 * A query parameter read as an integer only when it is written as one in decimal. `Number()` read
 * "0x10" as 16, "1e2" as 100, "0b11" as 3 and " 7 " as 7; those now stay text, and the integer
 * check after this names the parameter. A JSON number (a body, an MCP argument) is left as it is.
 */
export const QueryInteger = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && DECIMAL_INTEGER.test(value) ? Number(value) : value,
  );
