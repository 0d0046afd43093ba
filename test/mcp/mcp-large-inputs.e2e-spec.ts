import { CalculatorPool, HEAVY_TEXT_CHARS } from '../../src/calculators/calculator-pool';
import { DeferredJsonBody } from '../../src/common/http/json-body';
import { bootApp, call, randomIp, type TestApp } from '../utils/app';

const ACCEPT = { accept: 'application/json, text/event-stream' };
const LARGE_REPORT = 'The fund returned 1.2% net in March. '.repeat(Math.ceil(HEAVY_TEXT_CHARS / 30));

/**
 * A text calculator's large arguments take REST's path for a large body: validated on the worker
 * thread (the handler gets a DeferredJsonBody), and refused before any work when the pool is
 * saturated — not parsed and validated on the event loop first.
 */
describe('MCP: large calculator arguments go to the worker pool as REST bodies do (e2e)', () => {
  let app: TestApp;
  let pool: CalculatorPool;

  beforeAll(async () => {
    app = await bootApp({ calcWorkers: 1, calcQueueMax: 1 });
    pool = app.get(CalculatorPool);
  });
  afterAll(() => app.close());
  afterEach(() => jest.restoreAllMocks());

  const tool = (args: object, ip = randomIp()) =>
    call(app, 'POST', '/api/mcp/public', {
      ip,
      headers: ACCEPT,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'lp_report_grader', arguments: args } },
    });

  it('defers large arguments to the pool (validated on the thread) and answers what REST answers; small ones stay inline', async () => {
    const run = jest.spyOn(pool, 'run');
    const large = { reportText: LARGE_REPORT, reportingFrequency: 'monthly' };
    const answer = await tool(large);
    expect(run.mock.calls[0][1]).toBeInstanceOf(DeferredJsonBody);
    const rest = await call(app, 'POST', '/api/v1/calc/lp-report-grader', { ip: randomIp(), body: large });
    expect(answer.json.result.structuredContent).toEqual(rest.json);
    // invalid: the thread's validation names the field, as REST's 400 does
    const invalid = await tool({ ...large, reportingFrequency: 'weekly' });
    expect(invalid.json.result.isError).toBe(true);
    expect(invalid.json.result.content[0].text).toMatch(/^invalid_parameter: reportingFrequency: /);
    run.mockClear();
    await tool({ reportText: 'A short letter.' });
    expect(run.mock.calls[0][1]).not.toBeInstanceOf(DeferredJsonBody);
  });

  it('sheds large arguments when the pool is saturated, before validating or counting them; small calls still run', async () => {
    jest.spyOn(pool, 'saturated').mockReturnValue(true);
    const ip = randomIp();
    // an invalid field would have been named had the arguments been validated on the event loop first
    const shed = await tool({ reportText: LARGE_REPORT, reportingFrequency: 'weekly' }, ip);
    expect(shed.status).toBe(200);
    expect(shed.json.result).toEqual({
      content: [{ type: 'text', text: 'unavailable: the calculators are at capacity; retry in 1 s' }],
      isError: true,
    });
    expect(shed.headers['retry-after']).toBe('1');
    expect(shed.headers['ratelimit']).toBeUndefined(); // not counted against calc-daily
    const small = await tool({ reportText: 'A short letter.' }, ip);
    expect(small.json.result.isError ?? false).toBe(false);
  });
});
