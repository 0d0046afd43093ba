import { readdirSync, readFileSync } from 'node:fs';
import { CalculatorPool, HEAVY_TEXT_CHARS } from '../../src/calculators/calculator-pool';
import { DeferredJsonBody } from '../../src/common/http/json-body';
import { APP_CONFIG, type AppConfig } from '../../src/config/config';
import { bootApp, call, randomIp, type TestApp } from '../utils/app';
import { expectProblem } from './helpers';

/** A positions CSV of `rows` lines (some shorts, five classes, 17 venues). */
function positionsCsv(rows: number): string {
  const classes = ['crypto', 'equity', 'stablecoin', 'commodity', 'cash'];
  const lines = ['Asset,Value,Venue,Class'];
  for (let i = 0; i < rows; i++) {
    lines.push(
      `ASSET${i % 1200},${((i * 7919) % 2_000_000) - 300_000}.${String(i % 100).padStart(2, '0')},Venue ${i % 17},${classes[i % 5]}`,
    );
  }
  return lines.join('\r\n');
}

/** The same answer whatever the thread: the request id and instance differ per call, nothing else. */
const comparable = (body: string) => JSON.parse(body.replace(/"requestId":"[^"]*"/, '"requestId":""')) as unknown;

describe('calculators on the worker pool (e2e)', () => {
  let inline: TestApp; // CALC_WORKERS=0: every engine on the event loop
  let pooled: TestApp; // one worker thread, one waiting call at most
  beforeAll(async () => {
    inline = await bootApp({ calcWorkers: 0 });
    pooled = await bootApp({ calcWorkers: 1, calcQueueMax: 1 });
  });
  afterAll(async () => {
    await inline.close();
    await pooled.close();
  });

  const heavy: [string, unknown, number][] = [
    ['fee-calculator', { horizonYears: 100, crystallization: 'quarterly' }, 200],
    ['exposure-analysis', { positionsCsv: positionsCsv(3000), inputMethod: 'upload' }, 200],
    ['fund-health-check', { positionsCsv: positionsCsv(2000) }, 200],
    [
      'lp-report-grader',
      { reportText: 'Net IRR 12.4% after fees. Capital account statement enclosed. '.repeat(600) },
      200,
    ],
    [
      'exposure-analysis',
      { positionsCsv: `${positionsCsv(1000)}\r\nBAD,not-a-number,X,crypto`, inputMethod: 'upload' },
      400,
    ],
  ];

  it.each(heavy)(
    '%s answers byte for byte what the inline engine answers (errors included)',
    async (path, body, status) => {
      const a = await call(inline, 'POST', `/api/v1/calc/${path}`, { body, ip: randomIp() });
      const b = await call(pooled, 'POST', `/api/v1/calc/${path}`, { body, ip: randomIp() });
      expect([a.status, b.status]).toEqual([status, status]);
      expect(comparable(b.body)).toEqual(comparable(a.body));
    },
  );

  /**
   * A text calculator's body of HEAVY_TEXT_CHARS bytes or more is not parsed on the event loop: the
   * worker parses and validates it. Padding a small body with whitespace past that size sends it
   * down that path without changing its meaning, so both answers must be the same bytes.
   */
  const padded = (json: string) => json + ' '.repeat(HEAVY_TEXT_CHARS);
  const deferredCases: [string, string, string, number][] = [
    ['every default', 'exposure-analysis', '{}', 200],
    ['a small CSV', 'exposure-analysis', JSON.stringify({ positionsCsv: positionsCsv(20) }), 200],
    ['an unknown member', 'exposure-analysis', '{"positionsCsv":"Asset,Value\\r\\nBTC,1","bogus":1}', 400],
    ['a wrong type', 'nav-validator', '{"openingNavUsd":"a lot","lpRowsCsv":7}', 400],
    ['NUL in the text', 'lp-report-grader', '{"reportText":"Net IRR\\u0000 12%"}', 400],
    ['a lone surrogate', 'fund-health-check', '{"positionsCsv":"Asset,Value\\r\\n\\ud800,1"}', 400],
    ['__proto__', 'exposure-analysis', '{"__proto__":{"x":1}}', 400],
    ['constructor.prototype', 'exposure-analysis', '{"constructor":{"prototype":{"x":1}}}', 400],
    ['an array', 'exposure-analysis', '[1,2]', 400],
    ['null', 'exposure-analysis', 'null', 400],
    ['nesting past 64 levels', 'exposure-analysis', `{"a":${'['.repeat(65)}${']'.repeat(65)}}`, 400],
  ];

  it.each(deferredCases)(
    'a large body with %s answers what the same small body answers (parsed and validated on the worker)',
    async (_name, path, json, status) => {
      for (const app of [pooled, inline]) {
        const run = jest.spyOn(app.get(CalculatorPool), 'run');
        const small = await call(app, 'POST', `/api/v1/calc/${path}`, { body: json, ip: randomIp() });
        expect(run.mock.calls.every(([, body]) => !(body instanceof DeferredJsonBody))).toBe(true);
        const large = await call(app, 'POST', `/api/v1/calc/${path}`, { body: padded(json), ip: randomIp() });
        expect(run.mock.calls.at(-1)?.[1]).toBeInstanceOf(DeferredJsonBody); // the handler got the text, unparsed
        run.mockRestore();
        expect([small.status, large.status]).toEqual([status, status]);
        expect(comparable(large.body)).toEqual(comparable(small.body));
      }
    },
  );

  it('a large body that is not JSON is a 400 naming the parser error', async () => {
    const res = await call(pooled, 'POST', '/api/v1/calc/exposure-analysis', {
      body: padded('{"positionsCsv": "Asset,Value'),
      ip: randomIp(),
    });
    expectProblem(res, 400, 'invalid_request');
    expect(res.json.detail).toMatch(/^the body is not valid JSON: /);
  });

  it('inline (CALC_WORKERS=0) is never saturated, whatever CALC_QUEUE_MAX says', () => {
    const config = { ...inline.get<{ calcWorkers: number }>(APP_CONFIG), calcWorkers: 0, calcQueueMax: 0 } as AppConfig;
    expect(new CalculatorPool(config).saturated()).toBe(false);
  });

  it('a heavy call not done within CALC_TASK_TIMEOUT_MS is stopped: 503 saying so, and the pool goes on', async () => {
    const strict = await bootApp({ calcWorkers: 1, calcQueueMax: 4, calcTaskTimeoutMs: 1 });
    try {
      const body = { positionsCsv: positionsCsv(12_000), inputMethod: 'upload' };
      const slow = await call(strict, 'POST', '/api/v1/calc/exposure-analysis', { body, ip: randomIp() });
      expectProblem(slow, 503, 'unavailable');
      expect(slow.json.detail).toContain('did not finish within 1 ms and was stopped');
      expect(slow.headers['retry-after']).toBe('1');
    } finally {
      await strict.close();
    }
    const body = { positionsCsv: positionsCsv(3000), inputMethod: 'upload' };
    expect((await call(pooled, 'POST', '/api/v1/calc/exposure-analysis', { body, ip: randomIp() })).status).toBe(200);
  });

  it('a full queue answers 503 unavailable with Retry-After, never a growing queue; small calls still run inline', async () => {
    const body = { positionsCsv: positionsCsv(12_000), inputMethod: 'upload' };
    const burst = Array.from({ length: 16 }, () =>
      call(pooled, 'POST', '/api/v1/calc/exposure-analysis', { body, ip: randomIp() }),
    );
    const small = call(pooled, 'POST', '/api/v1/calc/operating-cost-calculator', { body: {}, ip: randomIp() });
    // saturated: a large body is refused before it is read (malformed JSON would otherwise be a 400)
    const pool = pooled.get(CalculatorPool);
    for (let i = 0; i < 400 && !pool.saturated(); i++) await new Promise((r) => setTimeout(r, 5));
    expect(pool.saturated()).toBe(true);
    const early = await call(pooled, 'POST', '/api/v1/calc/exposure-analysis', {
      body: `{"positionsCsv": "${'x'.repeat(20_000)}`,
      ip: randomIp(),
    });
    expectProblem(early, 503, 'unavailable');
    const answers = await Promise.all(burst);
    const ok = answers.filter((r) => r.status === 200);
    const shed = answers.filter((r) => r.status === 503);
    expect(ok.length + shed.length).toBe(answers.length);
    expect(ok.length).toBeGreaterThanOrEqual(2); // the running call and the one waiting
    expect(shed.length).toBeGreaterThan(0);
    expectProblem(shed[0], 503, 'unavailable');
    expect(shed[0].headers['retry-after']).toBe('1');
    expect((await small).status).toBe(200);
    expect(new Set(ok.map((r) => JSON.stringify(comparable(r.body))))).toHaveProperty('size', 1);
  });

  /** Nice value and scheduling policy of every thread of this process (Linux: fields 19 and 41 of /proc/self/task/<tid>/stat). */
  const threadPriorities = (): Map<number, { nice: number; policy: number }> =>
    new Map(
      readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return [Number(tid), { nice: Number(fields[16]), policy: Number(fields[38]) }];
      }),
    );
  const SCHED_IDLE = 5;

  (process.platform === 'linux' ? it : it.skip)(
    'calculator threads run at CALC_WORKER_NICE (default 19) in SCHED_IDLE; the event loop keeps its priority',
    async () => {
      const before = threadPriorities();
      const res = await call(pooled, 'POST', '/api/v1/calc/fee-calculator', {
        body: { horizonYears: 100, crystallization: 'quarterly' },
        ip: randomIp(),
      });
      expect(res.status).toBe(200);
      const after = threadPriorities();
      expect(after.get(process.pid)).toEqual(before.get(process.pid)); // the main thread is untouched
      expect(after.get(process.pid)?.policy).not.toBe(SCHED_IDLE);
      const calculators = [...after.values()].filter((t) => t.nice === 19);
      expect(calculators.length).toBeGreaterThanOrEqual(1);
      expect(calculators.every((t) => t.policy === SCHED_IDLE)).toBe(true);
    },
  );
});
