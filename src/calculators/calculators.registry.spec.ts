import { createValidationPipe } from '../common/errors/validation';
import { CALCULATORS, FEE_CALCULATOR, runCalculator, withDefaults } from './calculators.registry';

describe('calculators registry', () => {
  it('seven calculators, each with a DTO, an engine, defaults and an example that validates', async () => {
    expect(CALCULATORS).toHaveLength(7);
    const pipe = createValidationPipe(); // the global pipe REST and the MCP tools validate bodies with
    for (const def of CALCULATORS) {
      const body = (await pipe.transform(def.example, { type: 'body', metatype: def.dto, data: undefined })) as object;
      const answer = runCalculator(def, body) as { disclaimer: string };
      expect(answer.disclaimer).toMatch(/not accounting or tax advice/);
      // every example field is a field the engine reads
      for (const key of Object.keys(def.example)) expect(Object.keys(def.defaults)).toContain(key);
    }
  });

  it('withDefaults fills only absent fields and keeps an explicit null', () => {
    expect(withDefaults(FEE_CALCULATOR.defaults, { hurdlePct: null, horizonYears: 3 })).toEqual({
      ...FEE_CALCULATOR.defaults,
      hurdlePct: null,
      horizonYears: 3,
    });
    expect(withDefaults(FEE_CALCULATOR.defaults, undefined)).toEqual(FEE_CALCULATOR.defaults);
  });
});
