import { readdirSync, readFileSync } from 'node:fs';
import { CalculatorPool } from '../../src/calculators/calculator-pool';
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

  /** The nice value of every thread of this process (Linux: field 19 of /proc/self/task/<tid>/stat). */
  const threadNices = (): Map<number, number> =>
    new Map(
      readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return [Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])];
      }),
    );

  (process.platform === 'linux' ? it : it.skip)(
    'calculator threads run at CALC_WORKER_NICE (default 19); the event loop keeps its priority',
    async () => {
      const before = threadNices();
      const res = await call(pooled, 'POST', '/api/v1/calc/fee-calculator', {
        body: { horizonYears: 100, crystallization: 'quarterly' },
        ip: randomIp(),
      });
      expect(res.status).toBe(200);
      const after = threadNices();
      expect(after.get(process.pid)).toBe(before.get(process.pid)); // the main thread is untouched
      expect([...after.values()].filter((n) => n === 19).length).toBeGreaterThanOrEqual(1);
    },
  );
});
