import { bootApp, call, type TestApp } from '../utils/app';
import { expectProblem } from './helpers';

const HEADER = 'Asset,Value,Venue,Class';

/**
 * A message quotes the client's input to at most 64 characters (the last an ellipsis): a positionsCsv
 * whose header held one 500 000-character name was answered with a 1 MB problem quoting it twice.
 */
describe('CSV messages quote capped input (e2e)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp();
  });
  afterAll(() => app.close());

  const refused = async (path: string, body: unknown) => {
    const res = await call(app, 'POST', `/api/v1/calc/${path}`, { body });
    expectProblem(res, 400, 'invalid_parameter');
    expect(res.body.length).toBeLessThan(5_000);
    return res.json;
  };

  it('an unknown header name of 500 000 characters', async () => {
    const json = await refused('exposure-analysis', {
      positionsCsv: `${HEADER},${'x'.repeat(500_000)}\nBTC,1,X,crypto,1`,
    });
    expect(json.errors).toEqual([
      {
        field: 'positionsCsv',
        message: `line 1: the header must be ${HEADER} (column "${'x'.repeat(63)}…" is not expected)`,
      },
    ]);
  });

  it('a header of 50 000 unknown names quotes five and counts the rest', async () => {
    const names = Array.from({ length: 50_000 }, (_, i) => `c${i}`).join(',');
    const json = await refused('exposure-analysis', { positionsCsv: `${HEADER},${names}` });
    const listed = [0, 1, 2, 3, 4].map((i) => `column "c${i}" is not expected`).join('; ');
    expect(json.errors[0].message).toBe(
      `line 1: the header must be ${HEADER} (${listed}; and 49995 more columns not expected)`,
    );
  });

  it('cells: not a number, too large, negative', async () => {
    const cells = await refused('exposure-analysis', {
      positionsCsv: `${HEADER}\nBTC,${'a'.repeat(1000)},X,crypto\nETH,${'9'.repeat(1000)},X,crypto`,
    });
    expect(cells.errors.map((e: { message: string }) => e.message)).toEqual([
      `line 2: Value "${'a'.repeat(63)}…" is not a number`,
      `line 3: Value "${'9'.repeat(63)}…" is too large (at most 15 whole digits)`,
    ]);
    const negative = await refused('nav-validator', {
      lpRowsCsv: `Investor,Opening,Contributions,Withdrawals,Closing\nA,-1.${'0'.repeat(1000)},0,0,0`,
    });
    expect(negative.errors).toEqual([
      { field: 'lpRowsCsv', message: `line 2: Opening -1.${'0'.repeat(60)}… must not be negative` },
    ]);
  });
});
