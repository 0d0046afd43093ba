import { CALCULATORS, runCalculator } from '../../src/calculators/calculators.registry';
import { bootApp, call, randomIp, type TestApp } from '../utils/app';
import { CALC_PATHS } from './helpers';
import type { DocNode } from '../../src/common/openapi/document-node';

type Schema = DocNode;

/** A small JSON-schema check of what OpenAPI documents: types, nullability, enums, required and no undeclared members. */
function schemaProblems(value: unknown, schema: Schema, all: Record<string, Schema>, at: string): string[] {
  if (schema.$ref) return schemaProblems(value, all[schema.$ref.split('/').pop()], all, at);
  if (schema.allOf) return schema.allOf.flatMap((s: Schema) => schemaProblems(value, s, all, at));
  // OpenAPI 3.1: a nullable member is `anyOf: [X, {type: 'null'}]` or `type: [T, 'null']`.
  if (schema.anyOf) {
    const tries = (schema.anyOf as Schema[]).map((s) => schemaProblems(value, s, all, at));
    return tries.some((t) => t.length === 0) ? [] : tries[0];
  }
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type === undefined ? [] : [schema.type];
  if (value === null) return types.includes('null') ? [] : [`${at} is null`];
  if (schema.enum && !schema.enum.includes(value)) return [`${at} = ${JSON.stringify(value)} not in enum`];
  switch (types.find((t) => t !== 'null')) {
    case 'null':
      return [`${at} is not null`];
    case 'number':
      return typeof value === 'number' ? [] : [`${at} is not a number`];
    case 'integer':
      return Number.isInteger(value) ? [] : [`${at} is not an integer`];
    case 'string':
      return typeof value === 'string' ? [] : [`${at} is not a string`];
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${at} is not a boolean`];
    case 'array':
      return Array.isArray(value)
        ? value.flatMap((v, i) => schemaProblems(v, schema.items, all, `${at}[${i}]`))
        : [`${at} is not an array`];
    default: {
      if (typeof value !== 'object' || Array.isArray(value)) return [`${at} is not an object`];
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const obj = value as Record<string, unknown>;
      const out: string[] = [];
      for (const name of schema.required ?? []) if (!(name in obj)) out.push(`${at}.${name} is missing`);
      for (const [name, v] of Object.entries(obj)) {
        if (!props[name]) out.push(`${at}.${name} is not documented`);
        else out.push(...schemaProblems(v, props[name], all, `${at}.${name}`));
      }
      return out;
    }
  }
}

describe('calculators over REST (e2e)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp();
  });
  afterAll(() => app.close());

  it('the registry lists the seven routes', () => {
    expect(CALCULATORS.map((c) => c.path)).toEqual([...CALC_PATHS]);
  });

  describe.each(CALCULATORS.map((c) => [c.path, c] as const))('%s', (path, def) => {
    const url = `/api/v1/calc/${path}`;

    it('{} answers 200 with every default echoed and the disclaimer, the same bytes as the engine', async () => {
      const res = await call(app, 'POST', url, { body: {}, ip: randomIp() });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toBe(JSON.stringify(runCalculator(def, {})));
      expect(res.json.disclaimer).toBe('Illustrative estimate, not accounting or tax advice.');
      expect(res.json.assumptions).toBeDefined();
      // no key needed, yet the daily cap is announced
      expect(res.headers['ratelimit-policy']).toBe('"calc-daily";q=500;w=86400');
      expect(res.headers['ratelimit']).toMatch(/^"calc-daily";r=499;t=\d+$/);
    });

    it('a full body answers its own figures, deterministically', async () => {
      const first = await call(app, 'POST', url, { body: def.example, ip: randomIp() });
      expect(first.status).toBe(200);
      expect(first.body).toBe(JSON.stringify(runCalculator(def, def.example as never)));
      expect(first.body).not.toBe(JSON.stringify(runCalculator(def, {})));
      const again = await call(app, 'POST', url, { body: def.example, ip: randomIp() });
      expect(again.body).toBe(first.body);
    });
  });

  it('every answer matches its documented response schema exactly (the MCP outputSchema derives from it)', async () => {
    const doc = (await call(app, 'GET', '/api/openapi.json')).json;
    const schemas = doc.components.schemas as Record<string, Schema>;
    for (const def of CALCULATORS) {
      const op = doc.paths[`/api/v1/calc/${def.path}`].post;
      const schema = op.responses['200'].content['application/json'].schema as Schema;
      for (const body of [{}, def.example]) {
        const res = await call(app, 'POST', `/api/v1/calc/${def.path}`, { body, ip: randomIp() });
        expect({ path: def.path, problems: schemaProblems(res.json, schema, schemas, '$') }).toEqual({
          path: def.path,
          problems: [],
        });
      }
    }
    // the check itself bites
    const fee = await call(app, 'POST', '/api/v1/calc/fee-calculator', { body: {}, ip: randomIp() });
    const feeSchema = doc.paths['/api/v1/calc/fee-calculator'].post.responses['200'].content['application/json'].schema;
    const tampered = { ...fee.json, extra: 1, totals: { ...fee.json.totals, endingNavUsd: '1' } };
    delete tampered.disclaimer;
    expect(schemaProblems(tampered, feeSchema, schemas, '$').sort()).toEqual([
      '$.disclaimer is missing',
      '$.extra is not documented',
      '$.totals.endingNavUsd is not a number',
    ]);
  });

  it('fee-calculator over HTTP reproduces the fund-domain check vector', async () => {
    const res = await call(app, 'POST', '/api/v1/calc/fee-calculator', {
      body: {
        startingNavUsd: 100,
        annualGrossReturnPct: 12,
        mgmtFeePct: 2,
        perfFeePct: 20,
        hurdlePct: 4,
        hasHwm: true,
        crystallization: 'annual',
        horizonYears: 3,
      },
      ip: randomIp(),
    });
    expect(res.json.periods.map((p: { mgmtFeeUsd: number }) => p.mgmtFeeUsd)).toEqual([2, 2.18, 2.37]);
    expect(res.json.periods.map((p: { perfFeeUsd: number }) => p.perfFeeUsd)).toEqual([1.2, 1.31, 1.42]);
    expect(res.json.totals.endingNavUsd).toBe(128.79);
  });

  it('fee-calculator says what crystallization and highWaterMark mean, with figures the engine answers', async () => {
    const doc = (await call(app, 'GET', '/api/openapi.json')).json;
    const crystallization = doc.components.schemas.FeeCalculatorRequest.properties.crystallization.description;
    expect(crystallization).toMatch(/management fee/);
    const fees = async (c: string) =>
      (await call(app, 'POST', '/api/v1/calc/fee-calculator', { body: { crystallization: c }, ip: randomIp() })).json
        .totals.totalMgmtFeesUsd;
    const quote = (usd: number) => usd.toLocaleString('en-US', { minimumFractionDigits: 2 });
    expect(crystallization).toContain(
      `${quote(await fees('annual'))} annual vs ${quote(await fees('quarterly'))} quarterly`,
    );

    // a 10 % hurdle the fund never clears: the NAV rises, no fee is charged, the mark stays at the start
    const hwm = doc.components.schemas.FeePeriodRow.properties.highWaterMark.description;
    expect(hwm).toMatch(/NAV at the last performance fee/);
    expect(hwm).toMatch(/does not follow the NAV to a peak reached without a fee/);
    const res = await call(app, 'POST', '/api/v1/calc/fee-calculator', {
      body: { startingNavUsd: 100, annualGrossReturnPct: 8, hurdlePct: 10, horizonYears: 3 },
      ip: randomIp(),
    });
    const rows = res.json.periods as { closingNav: number; perfFeeUsd: number; highWaterMark: number }[];
    expect(rows.every((r) => r.perfFeeUsd === 0 && r.highWaterMark === 100)).toBe(true);
    expect(rows[2].closingNav).toBeGreaterThan(100);
  });

  it('a body with no Content-Type and no bytes takes every default', async () => {
    const res = await app
      .getHttpAdapter()
      .getInstance()
      .inject({ method: 'POST', url: '/api/v1/calc/operating-cost-calculator', remoteAddress: randomIp() });
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).totalAnnualCostUsd).toBe(663_000);
  });

  it('null is accepted where the interface allows it (hurdlePct, navUsd)', async () => {
    const fee = await call(app, 'POST', '/api/v1/calc/fee-calculator', { body: { hurdlePct: null }, ip: randomIp() });
    expect(fee.status).toBe(200);
    expect(fee.json.assumptions.hurdlePct).toBeNull();
    const exposure = await call(app, 'POST', '/api/v1/calc/exposure-analysis', {
      body: { navUsd: null },
      ip: randomIp(),
    });
    expect(exposure.json.assumptions.ratioBasis).toBe('sumOfValues');
    const health = await call(app, 'POST', '/api/v1/calc/fund-health-check', {
      body: { hurdlePct: null },
      ip: randomIp(),
    });
    expect(health.status).toBe(200);
  });

  it('OpenAPI documents each body with defaults, bounds and enums, and an example request and answer', async () => {
    const doc = (await call(app, 'GET', '/api/openapi.json')).json;
    for (const path of CALC_PATHS) {
      const op = doc.paths[`/api/v1/calc/${path}`]?.post;
      expect(op).toBeDefined();
      expect(op.tags).toEqual(['calculators']);
      const body = op.requestBody.content['application/json'];
      expect(Object.keys(body.examples)).toEqual(['defaults', 'full']);
      expect(op.responses['200'].content['application/json'].example.disclaimer).toMatch(
        /not accounting or tax advice/,
      );
      for (const status of ['400', '413', '415', '429']) expect(op.responses[status]).toBeDefined();
      const schema = doc.components.schemas[body.schema.$ref.split('/').pop()];
      expect(schema.required ?? []).toEqual([]);
      for (const [name, prop] of Object.entries<Record<string, unknown>>(schema.properties)) {
        expect({ name, hasDefault: 'default' in prop, described: typeof prop.description === 'string' }).toEqual({
          name,
          hasDefault: true,
          described: true,
        });
      }
    }
    const fee = doc.components.schemas.FeeCalculatorRequest.properties;
    expect(fee.horizonYears).toMatchObject({ type: 'number', exclusiveMinimum: 0, maximum: 100, default: 5 }); // 3.1 numeric bound
    expect(fee.mgmtFeePct).toMatchObject({ minimum: 0, maximum: 100 });
    expect(fee.crystallization).toMatchObject({ enum: ['annual', 'quarterly'], default: 'annual' });
    expect(fee.hurdlePct).toMatchObject({ type: ['number', 'null'], default: null });
    const health = doc.components.schemas.FundHealthCheckRequest.properties;
    expect(health.navFrequency.enum).toEqual(['daily', 'weekly', 'monthly', 'quarterly']);
    expect(health.reconFrequency.enum).toEqual(['daily', 'weekly', 'monthly', 'rarely']);
    expect(health.lpReportingFrequency.enum).toEqual(['monthly', 'quarterly', 'adhoc']);
    expect(health.backOfficeHeadcount.type).toBe('number'); // full-time equivalents (the interface: number)
    expect(doc.components.schemas.LpReportGraderRequest.properties.reportingFrequency.enum).toEqual([
      'monthly',
      'quarterly',
      'adhoc',
    ]);
    expect(doc.components.schemas.NavValidatorRequest.properties.periodStart).toMatchObject({
      format: 'date',
      default: '2025-01-01',
    });
    expect(doc.components.schemas.FeeCalculatorResponse.properties.periods.items.$ref).toMatch(/FeePeriodRow$/);
  });
});
