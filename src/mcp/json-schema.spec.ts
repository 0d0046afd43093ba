import { argumentTypeCheck, toJsonSchema } from './json-schema';

describe('OpenAPI → JSON Schema for MCP', () => {
  const components = {
    Actor: { type: 'object', properties: { id: { type: 'string', format: 'uuid' } }, required: ['id'] },
  };

  it('inlines $refs and drops OpenAPI-only keywords and private formats', () => {
    expect(
      toJsonSchema(
        {
          type: 'object',
          properties: {
            a: { $ref: '#/components/schemas/Actor' },
            w: { type: 'string', format: 'wallet-address', example: 'x' },
          },
        },
        components,
      ),
    ).toEqual({ type: 'object', properties: { a: components.Actor, w: { type: 'string' } } });
  });

  it('admits null for a nullable plain type and enum', () => {
    expect(toJsonSchema({ type: 'string', nullable: true, enum: ['a'] }, components)).toEqual({
      type: ['string', 'null'],
      enum: ['a', null],
    });
  });

  it("admits null as a whole for a nullable composition (swagger's nullable DTO member)", () => {
    const s = toJsonSchema(
      { nullable: true, type: 'object', allOf: [{ $ref: '#/components/schemas/Actor' }] },
      components,
    );
    expect(s).toEqual({ anyOf: [{ type: 'object', allOf: [components.Actor] }, { type: 'null' }] });
  });

  it('turns the draft-04 boolean exclusiveMinimum into the 2020-12 numeric bound', () => {
    expect(toJsonSchema({ type: 'number', minimum: 0, exclusiveMinimum: true }, components)).toEqual({
      type: 'number',
      exclusiveMinimum: 0,
    });
    expect(toJsonSchema({ type: 'number', minimum: 0, exclusiveMinimum: false }, components)).toEqual({
      type: 'number',
      minimum: 0,
    });
  });
});

describe('argument type check of a read tool', () => {
  const input = {
    type: 'object',
    properties: {
      symbol: { type: 'string' },
      limit: { type: 'integer', minimum: 1 },
      confidence: { type: 'string', enum: ['0.95', '0.99'] },
      days: { type: 'integer', enum: [1, 10] },
      rate: { type: ['number', 'null'] },
      free: { description: 'no type: left to the DTO' },
    },
    additionalProperties: false,
  };
  const check = argumentTypeCheck(input)!;

  it('is null for a tool without typed parameters (nothing runs per call)', () => {
    expect(argumentTypeCheck({ type: 'object', properties: {}, additionalProperties: false })).toBeNull();
    expect(argumentTypeCheck({ type: 'object', properties: { x: {} } })).toBeNull();
  });

  it('names every argument of the wrong JSON type, integer-ness or enum value', () => {
    expect(check({ symbol: true, limit: '5', confidence: 0.99, days: 1.5, rate: 'x' })).toEqual([
      { field: 'symbol', message: 'must be a string' },
      { field: 'limit', message: 'must be an integer number' },
      { field: 'confidence', message: 'must be a string: one of "0.95", "0.99"' },
      { field: 'days', message: 'must be an integer number: one of 1, 10' },
      { field: 'rate', message: 'must be a number' },
    ]);
    expect(check({ confidence: '0.9', days: 2 })).toEqual([
      { field: 'confidence', message: 'must be one of the following values: 0.95, 0.99' },
      { field: 'days', message: 'must be one of the following values: 1, 10' },
    ]);
    expect(check({ limit: Infinity, rate: NaN })).toEqual([
      { field: 'limit', message: 'must be an integer number' },
      { field: 'rate', message: 'must be a number' },
    ]);
  });

  it("passes well-typed, absent, null and unknown arguments (bounds and unknown names are the DTO's)", () => {
    expect(check({ symbol: 'BTC', limit: 0, confidence: '0.95', days: 10, rate: 2.5, free: [1] })).toEqual([]);
    expect(check({ symbol: null, limit: undefined, bogus: {} })).toEqual([]);
  });
});
