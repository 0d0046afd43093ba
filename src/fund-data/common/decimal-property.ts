import { ApiProperty } from '@nestjs/swagger';

/** OpenAPI documentation of the decimal-string members (the redaction copies them as primitives). */
const kinds = {
  money: { pattern: '^-?\\d+\\.\\d{2}$', note: 'decimal string, base currency, exactly 2 decimals' },
  quantity: { pattern: '^-?\\d+(\\.\\d{1,10})?$', note: 'decimal string, up to 10 decimals' },
  units: { pattern: '^-?\\d+\\.\\d{8}$', note: 'decimal string, 8 decimals' },
  navPerUnit: { pattern: '^-?\\d+\\.\\d{6}$', note: 'decimal string, 6 decimals' },
  valuePerUnit: {
    pattern: '^-?\\d+\\.\\d{12}$',
    note: 'decimal string, 12 decimals: units × value is exact to the cent',
  },
  ratio: { pattern: '^-?\\d+\\.\\d{8}$', note: 'decimal string, fraction of 1, 8 decimals' },
} as const;

export type DecimalKind = keyof typeof kinds;

export function DecimalProperty(
  kind: DecimalKind,
  opts: { example?: string; description?: string; nullable?: boolean } = {},
): PropertyDecorator {
  const k = kinds[kind];
  return ApiProperty({
    type: String,
    format: 'decimal',
    pattern: k.pattern,
    nullable: opts.nullable ?? false,
    example: opts.example,
    description: opts.description ? `${opts.description} (${k.note})` : k.note,
  });
}
