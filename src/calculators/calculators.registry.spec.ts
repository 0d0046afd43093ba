import { ProblemError } from '../common/errors/problem';
import {
  CALCULATORS,
  FEE_CALCULATOR,
  NAV_VALIDATOR,
  runCalculator,
  validateCalculatorBody,
  withDefaults,
} from './calculators.registry';

describe('calculators registry', () => {
  it('seven calculators, each with a DTO, an engine, defaults and an example that validates', async () => {
    expect(CALCULATORS).toHaveLength(7);
    for (const def of CALCULATORS) {
      const body = await validateCalculatorBody(def, def.example);
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

  it('validateCalculatorBody applies the HTTP rules outside HTTP (for the MCP server)', async () => {
    await expect(validateCalculatorBody(FEE_CALCULATOR, undefined)).resolves.toEqual({});
    expect.assertions(5);
    try {
      await validateCalculatorBody(NAV_VALIDATOR, { mgmtFeePct: '2', periodEnd: '2024-12-31', surprise: 1 });
    } catch (err) {
      expect(err).toBeInstanceOf(ProblemError);
      expect((err as ProblemError).status).toBe(400);
      expect((err as ProblemError).errors?.map((e) => e.field).sort()).toEqual(['mgmtFeePct', 'periodEnd', 'surprise']);
    }
    await expect(validateCalculatorBody(FEE_CALCULATOR, [1])).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
