import { OrderedReads } from '../../src/fund-data/common/ordered-read.repository';
import { bootApp, dbOf, type TestApp } from '../utils/app';

/** Ordered page reads run on connections of their own whose session settings forbid sorts and bitmap scans. */
describe('ordered reads (e2e)', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await bootApp();
  });
  afterAll(async () => {
    await app.close();
  });

  const SETTINGS = `SELECT current_setting('enable_sort') AS sort, current_setting('enable_bitmapscan') AS bitmap,
                           current_setting('jit') AS jit, current_setting('statement_timeout') AS timeout`;

  it('reads with sorts, bitmap scans and JIT off, in one statement, while the main pool keeps the defaults', async () => {
    const [ordered] = await app.get(OrderedReads).read<Record<string, string>>(dbOf(app), SETTINGS, []);
    expect(ordered).toMatchObject({ sort: 'off', bitmap: 'off', jit: 'off' });
    expect(ordered.timeout).not.toBe('0'); // the DataSource's statement timeout applies here too
    const [main] = await dbOf(app).query<Record<string, string>[]>(SETTINGS);
    expect(main).toMatchObject({ sort: 'on', bitmap: 'on' });
  });

  it('every connection of the pool runs in UTC, whatever the server says (days are UTC days in SQL)', async () => {
    const [{ tz }] = await dbOf(app).query<{ tz: string }[]>(`SELECT current_setting('TimeZone') AS tz`);
    expect(tz).toBe('UTC'); // this server's own default is Etc/UTC; a non-UTC one moved /usage day boundaries
  });

  it('passes parameters and answers rows', async () => {
    const rows = await app.get(OrderedReads).read<{ n: number }>(dbOf(app), 'SELECT $1::int + 1 AS n', [41]);
    expect(rows).toEqual([{ n: 42 }]);
  });
});
