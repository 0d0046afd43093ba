import { toJsonSchema } from './json-schema';

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
