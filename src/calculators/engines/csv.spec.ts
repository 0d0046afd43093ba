import Decimal from 'decimal.js';
import fc from 'fast-check';
import { ProblemError } from '../../common/errors/problem';
import { amountToDec, parseAmount, TOO_LARGE } from './amount';
import { CSV_MAX_BYTES, MAX_ROW_ERRORS, parseCsvTable, readCsv } from './csv';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parse: csvParse } = require('csv-parse/sync') as { parse: (text: string, opts: object) => string[][] };

const COLUMNS = [
  { name: 'Asset', kind: 'text' as const, required: true },
  { name: 'Value', kind: 'amount' as const, required: true },
];

function problemOf(fn: () => unknown): ProblemError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ProblemError) return err;
    throw err;
  }
  throw new Error('expected a ProblemError');
}

describe('readCsv', () => {
  it.each([
    [
      'LF',
      'a,b\n1,2\n',
      [
        [1, ['a', 'b']],
        [2, ['1', '2']],
      ],
    ],
    [
      'CRLF and a missing final newline',
      'a,b\r\n1,2',
      [
        [1, ['a', 'b']],
        [2, ['1', '2']],
      ],
    ],
    [
      'lone CR',
      'a,b\r1,2\r',
      [
        [1, ['a', 'b']],
        [2, ['1', '2']],
      ],
    ],
    [
      'mixed line ends',
      'a,b\r\n1,2\n3,4\r5,6',
      [
        [1, ['a', 'b']],
        [2, ['1', '2']],
        [3, ['3', '4']],
        [4, ['5', '6']],
      ],
    ],
    [
      'a BOM',
      '\ufeffa,b\n1,2',
      [
        [1, ['a', 'b']],
        [2, ['1', '2']],
      ],
    ],
    [
      'blank and spreadsheet-empty lines',
      '\na,b\n\n  \n,,\r\n1,2\n\n',
      [
        [2, ['a', 'b']],
        [6, ['1', '2']],
      ],
    ],
    [
      'spaces around fields',
      ' a , b \n 1 ,\t2',
      [
        [1, ['a', 'b']],
        [2, ['1', '2']],
      ],
    ],
    [
      'quoted comma and escaped quote',
      'a,b\n"x, ""y""",2',
      [
        [1, ['a', 'b']],
        [2, ['x, "y"', '2']],
      ],
    ],
    [
      'a quoted line break counts its lines',
      'a,b\n"two\nlines",1\r\n"three\r\nmore\rlines",2\nz,3',
      [
        [1, ['a', 'b']],
        [2, ['two\nlines', '1']],
        [4, ['three\r\nmore\rlines', '2']],
        [7, ['z', '3']],
      ],
    ],
    [
      'spaces around a quoted field are dropped, inside kept',
      'a\n  " x "  ',
      [
        [1, ['a']],
        [2, [' x ']],
      ],
    ],
    [
      'a trailing comma is an empty last field',
      'a,b,\n1,2,',
      [
        [1, ['a', 'b', '']],
        [2, ['1', '2', '']],
      ],
    ],
  ])('%s', (_name, text, expected) => {
    expect(readCsv(text).map((r) => [r.line, r.fields])).toEqual(expected);
  });

  it('an unclosed quote is reported at the line where it opened', () => {
    expect(() => readCsv('a,b\n1,2\n"open,3\n4,5')).toThrow('line 3: a quoted field is never closed');
  });

  it('text after a closing quote is an error with its line', () => {
    expect(() => readCsv('a,b\n"x"y,1')).toThrow(/^line 2: unexpected text after a closing quote/);
  });

  it('agrees with csv-parse on generated CSV (quotes, commas, CR/LF inside fields)', () => {
    const cell = fc.stringMatching(/^[a-z0-9 ,"\r\n]{0,8}$/);
    fc.assert(
      fc.property(
        fc.array(fc.array(cell, { minLength: 3, maxLength: 3 }), { minLength: 1, maxLength: 20 }),
        fc.constantFrom('\n', '\r\n'),
        (rows, eol) => {
          const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
          const text = rows.map((r) => r.map(quote).join(',')).join(eol);
          const ours = readCsv(text).map((r) => r.fields);
          const theirs = csvParse(text, { relax_column_count: true, record_delimiter: ['\r\n', '\n'] }).filter(
            (r) => !r.every((f) => f === ''),
          );
          expect(ours).toEqual(theirs);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('parseAmount', () => {
  it.each([
    ['1234.5', '1234.5'],
    ['-1,234.50', '-1234.5'],
    ['$1,234', '1234'],
    ['(1,234.50)', '-1234.5'],
    ['( $ 12 )', '-12'],
    ['+12', '12'],
    ['- 7', '-7'],
    ['.5', '0.5'],
    ['0', '0'],
    ['000123', '123'],
    ['999999999999999.9999999999', '999999999999999.9999999999'],
    ['0.123456789012345', '0.1234567890'],
    ['0.00000000005', '0.0000000001'],
    ['-0.99999999999', '-1'],
    ['$-1', '-1'], // as -$1 is
    ['-$1', '-1'],
    ['$ +2.5', '2.5'],
    ['\u2212100', '-100'], // the Unicode minus sign
    ['\u22121,234.5', '-1234.5'],
    ['1\u00a0234\u00a0567.5', '1234567.5'], // no-break spaces between thousands
    ['-1\u2009234', '-1234'], // thin space
    ['$1\u202f234', '1234'], // narrow no-break space
    ['\u00a0(1,234)\u00a0', '-1234'],
  ])('%s → %s', (raw, expected) => {
    const a = parseAmount(raw);
    if (a === null || a === TOO_LARGE) throw new Error(`${raw} not read`);
    expect(amountToDec(a).toFixed(10)).toBe(new Decimal(expected).toFixed(10));
  });

  it.each([
    '',
    'abc',
    '1e5',
    '12.',
    '--1',
    '(-1)',
    '1,23',
    '12,3456',
    ',123',
    '1 234',
    '$',
    '1.2.3',
    'NaN',
    'Infinity',
    '0x10',
    '0,123', // a decimal comma, not 123
    '00,123',
    '0,000,001',
    '$-$1',
    '-$-1',
    '(\u22121)',
    '\u2212\u22121',
    '1,234\u00a0567', // one kind of separator per number
    '1\u00a023',
  ])('%j is not a number', (raw) => {
    expect(parseAmount(raw)).toBeNull();
  });

  it('more than 15 whole digits is too large', () => {
    expect(parseAmount('1000000000000000')).toBe(TOO_LARGE);
    expect(parseAmount('000000000000000000001')).toEqual({ hi: 1, lo: 0 });
  });
});

describe('parseCsvTable', () => {
  it('reads any column order and case, and returns the spec order', () => {
    const rows = parseCsvTable('f', 'value,ASSET\n"1,000",BTC', COLUMNS);
    expect(rows[0].text[0]).toBe('BTC');
    expect(amountToDec(rows[0].amount[1]).toNumber()).toBe(1000);
    expect(rows[0].line).toBe(2);
  });

  it.each([
    ['', 'is empty: the first line must be the header Asset,Value'],
    ['Asset\nBTC', 'line 1: the header must be Asset,Value (column Value is missing)'],
    ['Asset,Value,Asset\nBTC,1,x', 'line 1: the header must be Asset,Value (column Asset appears twice)'],
    ['Asset,Value,Price\nBTC,1,2', 'line 1: the header must be Asset,Value (column "price" is not expected)'],
  ])('header problem in %j', (text, message) => {
    const p = problemOf(() => parseCsvTable('positionsCsv', text, COLUMNS));
    expect(p.status).toBe(400);
    expect(p.code).toBe('invalid_parameter');
    expect(p.errors).toEqual([{ field: 'positionsCsv', message }]);
  });

  it.each([
    ['semicolon', 'Asset;Value\nBTC;1'],
    ['tab', 'Asset\tValue\nBTC\t1'],
  ])('a %s-separated file is named as such', (kind, text) => {
    expect(problemOf(() => parseCsvTable('positionsCsv', text, COLUMNS)).errors).toEqual([
      {
        field: 'positionsCsv',
        message: `line 1: the header must be Asset,Value: the file looks ${kind}-separated; separate columns with commas`,
      },
    ]);
  });

  it('an unquoted 1,234 that splits an amount gets a hint to quote it', () => {
    const p = problemOf(() => parseCsvTable('positionsCsv', 'Asset,Value\nBTC,1,234\nETH,(2,500.50)\nX,1,y', COLUMNS));
    expect(p.errors).toEqual([
      {
        field: 'positionsCsv',
        message: 'line 2: expected 2 fields, found 3 (quote an amount with thousands separators: "1,234.50")',
      },
      {
        field: 'positionsCsv',
        message: 'line 3: expected 2 fields, found 3 (quote an amount with thousands separators: "1,234.50")',
      },
      { field: 'positionsCsv', message: 'line 4: expected 2 fields, found 3' },
    ]);
  });

  it('an empty trailing header column (Excel) is ignored with the empty cells under it', () => {
    const rows = parseCsvTable('positionsCsv', 'Asset,Value,\nBTC,1,\nETH,2\n', COLUMNS);
    expect(rows.map((r) => [r.line, r.text[0]])).toEqual([
      [2, 'BTC'],
      [3, 'ETH'],
    ]);
    expect(parseCsvTable('positionsCsv', 'Asset,Value,,\nBTC,1,,', COLUMNS)).toHaveLength(1);
    // a cell under the empty header is not ignored, nor a cell beyond the header
    expect(problemOf(() => parseCsvTable('positionsCsv', 'Asset,Value,\nBTC,1,x\nETH,2,,', COLUMNS)).errors).toEqual([
      { field: 'positionsCsv', message: 'line 2: expected 2 fields, found 3' },
      { field: 'positionsCsv', message: 'line 3: expected 2 fields, found 4' },
    ]);
  });

  it('reports every bad row by its line, after blank lines and multi-line quoted fields', () => {
    const text =
      'Asset,Value\r\nBTC,1\r\n\r\n,2\r\n"multi\r\nline",abc\r\nETH\r\nSOL,1,2\r\nOK,3\r\nBIG,12345678901234567\r\n';
    const p = problemOf(() => parseCsvTable('positionsCsv', text, COLUMNS));
    expect(p.detail).toBe('positionsCsv has 5 bad rows');
    expect(p.errors).toEqual([
      { field: 'positionsCsv', message: 'line 4: Asset is empty' },
      { field: 'positionsCsv', message: 'line 5: Value "abc" is not a number' },
      { field: 'positionsCsv', message: 'line 7: expected 2 fields, found 1' },
      { field: 'positionsCsv', message: 'line 8: expected 2 fields, found 3' },
      { field: 'positionsCsv', message: 'line 10: Value "12345678901234567" is too large (at most 15 whole digits)' },
    ]);
  });

  it('negative amounts are refused where the column says so', () => {
    const p = problemOf(() =>
      parseCsvTable('lpRowsCsv', 'Investor,Opening\nA,-5', [
        { name: 'Investor', kind: 'text', required: true },
        { name: 'Opening', kind: 'amount', required: true, nonNegative: true },
      ]),
    );
    expect(p.errors).toEqual([{ field: 'lpRowsCsv', message: 'line 2: Opening -5 must not be negative' }]);
  });

  it(`itemises at most ${MAX_ROW_ERRORS} bad rows and counts the rest`, () => {
    const text = ['Asset,Value', ...Array.from({ length: 150 }, (_, i) => `A${i},x`)].join('\n');
    const p = problemOf(() => parseCsvTable('positionsCsv', text, COLUMNS));
    expect(p.errors).toHaveLength(MAX_ROW_ERRORS + 1);
    expect(p.errors?.[0].message).toBe('line 2: Value "x" is not a number');
    expect(p.errors?.[MAX_ROW_ERRORS].message).toBe('and 50 more bad rows not listed');
    expect(p.detail).toBe('positionsCsv has 150 bad rows');
  });

  it('over 512 KiB (in UTF-8 bytes) is 413 payload_too_large', () => {
    const row = 'BTC,1\n';
    const justFits = 'Asset,Value\n' + row.repeat(Math.floor((CSV_MAX_BYTES - 12) / row.length));
    expect(parseCsvTable('positionsCsv', justFits, COLUMNS).length).toBeGreaterThan(80_000);
    const p = problemOf(() => parseCsvTable('positionsCsv', justFits + 'X'.repeat(CSV_MAX_BYTES), COLUMNS));
    expect(p.status).toBe(413);
    expect(p.code).toBe('payload_too_large');
    // 200 000 three-byte characters are 600 000 bytes though only 200 000 string units
    const wide = 'Asset,Value\n' + '€'.repeat(200_000);
    expect(problemOf(() => parseCsvTable('positionsCsv', wide, COLUMNS)).status).toBe(413);
  });
});
