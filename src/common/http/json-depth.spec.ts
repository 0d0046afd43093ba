import { jsonDepthExceeds } from './json-body';

describe('jsonDepthExceeds', () => {
  const nested = (n: number) => '['.repeat(n) + ']'.repeat(n);

  it('refuses nesting deeper than the limit and accepts the limit itself', () => {
    expect(jsonDepthExceeds(nested(65), 64)).toBe(true);
    expect(jsonDepthExceeds(nested(64), 64)).toBe(false);
    expect(jsonDepthExceeds(`{"a":${nested(70)}}`, 64)).toBe(true);
  });

  it('counts only structure: brackets inside strings do not nest', () => {
    expect(jsonDepthExceeds(JSON.stringify({ csv: '['.repeat(500) }), 64)).toBe(false);
    expect(jsonDepthExceeds(JSON.stringify({ csv: 'a\\"[[['.repeat(100), deep: JSON.parse(nested(65)) }), 64)).toBe(
      true,
    );
  });

  it('many flat openers are not depth', () => {
    expect(jsonDepthExceeds(JSON.stringify(Array.from({ length: 1000 }, (_, i) => ({ i }))), 64)).toBe(false);
  });
});
