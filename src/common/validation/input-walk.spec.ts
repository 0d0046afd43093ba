import { inputFindings } from './input-walk';

const unsafe = (field: string) => ({ field, message: 'must not contain NUL characters or invalid Unicode' });
const unknown = (field: string) => ({ field, message: 'is not a known field' });

describe('inputFindings', () => {
  it('finds nothing in an ordinary body, query or path parameter', () => {
    const body = {
      entryDate: '2025-03-31',
      lines: [
        { accountCode: '5500', debit: '1.00' },
        { n: 1, ok: true, x: null },
      ],
    };
    expect(inputFindings(body, '', true)).toEqual({ unsafe: [], hidden: [] });
    expect(inputFindings({ limit: '5', side: ['buy', 'sell'] }, '', true)).toEqual({ unsafe: [], hidden: [] });
    expect(inputFindings('0b9c…', 'id', false)).toEqual({ unsafe: [], hidden: [] });
  });

  it('names unsafe strings and member names by dotted path, sorted, a bare body string as body', () => {
    const body = { b: ['ok', 'x\u0000'], a: { 'k\ud800': { deeper: '\u0000' }, c: '\udc00' } };
    expect(inputFindings(body, '', true).unsafe).toEqual([unsafe('a.c'), unsafe('a.k?'), unsafe('b.1')]);
    expect(inputFindings('\u0000', '', false).unsafe).toEqual([unsafe('body')]);
    expect(inputFindings('\u0000', 'id', false).unsafe).toEqual([unsafe('id')]);
    expect(inputFindings({ q: '\ud800' }, 'query', true).unsafe).toEqual([unsafe('query.q')]);
  });

  it('names hidden members at any depth (arrays included), not the members inside one, in walk order', () => {
    const body = {
      toString: { valueOf: 1 },
      lines: [{ a: 1 }, { constructor: 'x', prototype: 2 }] as object[],
      z: { hasOwnProperty: 0 },
    };
    expect(inputFindings(body, '', true).hidden).toEqual([
      unknown('toString'),
      unknown('z.hasOwnProperty'),
      unknown('lines.1.constructor'),
      unknown('lines.1.prototype'),
    ]);
    expect(inputFindings(body, '', false).hidden).toEqual([]);
  });

  it('still reads unsafe text inside a hidden member', () => {
    expect(inputFindings({ constructor: { a: '\u0000' } }, '', true).unsafe).toEqual([unsafe('constructor.a')]);
  });

  it('stops at max findings of each kind, keeping the last members (walked first)', () => {
    const many = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`m${i}`, '\u0000']));
    expect(inputFindings(many, '', true, 2).unsafe).toEqual([unsafe('m3'), unsafe('m4')]);
    const hidden = { a: { toString: 1 }, b: { valueOf: 1 }, c: { constructor: 1, prototype: 1 } };
    expect(inputFindings(hidden, '', true, 2).hidden).toEqual([unknown('c.constructor'), unknown('c.prototype')]);
  });
});
