import { Decimal } from '../money';
import { administratorHistory, reconcile } from './reconciliation';

describe('reconciliation against the administrator NAV (default tolerance 5 bp)', () => {
  const tol = new Decimal('0.0005');
  it.each([
    ['100000000.00', '100000000.00', '0.00', '0.00000000', true],
    ['100050000.00', '100000000.00', '50000.00', '0.00050000', true],
    // judged on the ratio as served (8 decimals): a cent over 5 bp on 100 m shows 0.00050000, within
    ['100050000.01', '100000000.00', '50000.01', '0.00050000', true],
    ['100050001.00', '100000000.00', '50001.00', '0.00050001', false],
    ['99900000.00', '100000000.00', '-100000.00', '-0.00100000', false],
  ])('shadow %s vs administrator %s', (shadow, admin, diff, ratio, within) => {
    const row = reconcile('2026-10-31', new Decimal(shadow), new Decimal(admin), tol);
    expect(row).toEqual({
      valuationDate: '2026-10-31',
      shadowNav: shadow,
      administratorNav: admin,
      difference: diff,
      differenceRatio: ratio,
      withinTolerance: within,
      status: within ? 'within_tolerance' : 'break',
    });
  });
});

describe("the administrator's figures for a date, oldest first (the last is the current one)", () => {
  const at = (iso: string) => new Date(iso);
  it('answers the current import time and the replaced figures, latest first, each replaced by the next', () => {
    expect(
      administratorHistory([
        { nav: '100.5', importedAt: null },
        { nav: '101.00', importedAt: at('2026-11-02T09:00:00Z') },
        { nav: '100.50', importedAt: at('2026-11-20T09:00:00Z') },
      ]),
    ).toEqual({
      currentImportedAt: '2026-11-20T09:00:00.000Z',
      restatements: [
        { administratorNav: '101.00', importedAt: '2026-11-02T09:00:00.000Z', replacedAt: '2026-11-20T09:00:00.000Z' },
        { administratorNav: '100.50', importedAt: null, replacedAt: '2026-11-02T09:00:00.000Z' },
      ],
    });
    expect(administratorHistory([{ nav: '1.00', importedAt: null }])).toEqual({
      currentImportedAt: null,
      restatements: [],
    });
  });

  it('refuses a replacing figure without an import time (only the first may predate the history)', () => {
    expect(() =>
      administratorHistory([
        { nav: '1.00', importedAt: null },
        { nav: '2.00', importedAt: null },
      ]),
    ).toThrow(/version 2 has no import time/);
  });
});
