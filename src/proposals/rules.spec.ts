import { isDealingDate } from '../fund/reporting/dealing-calendar';
import { canonicalJson, requestFingerprint } from './idempotency.service';
import { PREVIEW_LENGTH, narrativePreview } from './kinds/lp-report';

describe('dealing calendar', () => {
  it.each([
    ['2026-01-31', 'monthly', true],
    ['2026-02-28', 'monthly', true],
    ['2028-02-28', 'monthly', false],
    ['2028-02-29', 'monthly', true],
    ['2026-01-30', 'monthly', false],
    ['2026-03-31', 'quarterly', true],
    ['2026-04-30', 'quarterly', false],
    ['2026-12-31', 'quarterly', true],
    ['2026-01-02', 'weekly', true],
    ['2026-01-03', 'weekly', false],
    ['2026-01-03', 'daily', true],
  ] as const)('%s is a %s dealing date: %s', (date, frequency, expected) => {
    expect(isDealingDate(date, frequency)).toBe(expected);
  });
});

describe('request fingerprint', () => {
  it('ignores member order and undefined members, not values or routes', () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: 1 }], c: undefined })).toBe('{"a":[{"x":1,"y":2}],"b":1}');
    expect(requestFingerprint('expense', { a: 1, b: 2 })).toBe(requestFingerprint('expense', { b: 2, a: 1 }));
    expect(requestFingerprint('expense', { a: 1 })).not.toBe(requestFingerprint('expense', { a: '1' }));
    expect(requestFingerprint('expense', { a: 1 })).not.toBe(requestFingerprint('journal-entry', { a: 1 }));
  });
});

describe('LP report preview', () => {
  it('keeps a short narrative whole, cuts a long one at a word with an ellipsis, never half a character', () => {
    expect(narrativePreview('  Q3: the fund returned 4.1%.  ')).toBe('Q3: the fund returned 4.1%.');
    const words = narrativePreview('word '.repeat(400));
    expect(Array.from(words).length).toBeLessThanOrEqual(PREVIEW_LENGTH);
    expect(words).toMatch(/ word…$/);
    const emoji = narrativePreview('📈'.repeat(PREVIEW_LENGTH + 5));
    expect(Array.from(emoji)).toHaveLength(PREVIEW_LENGTH);
    expect(emoji.endsWith('📈…')).toBe(true);
    expect(Buffer.from(emoji, 'utf8').toString('utf8')).toBe(emoji); // no lone surrogate (it would read back as U+FFFD)
  });
});
