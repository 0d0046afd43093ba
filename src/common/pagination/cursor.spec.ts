import { CURSOR_MAX_LENGTH, CURSOR_TEXT_MAX, CursorCodec, isCursorTimestamp } from './cursor';

describe('CursorCodec: signed, then checked member by member', () => {
  const codec = new CursorCodec('a-test-secret-of-some-length');
  const shape = { createdAt: 'timestamp', id: 'uuid' } as const;
  const id = '0b6f3f7e-5d0c-4c57-9a55-1f0d2b1c9e01';

  it('round-trips a position', () => {
    const c = codec.encode('k', { createdAt: '2026-03-01 10:00:00.123456+00', id });
    expect(codec.decode('k', c, shape)).toEqual({ createdAt: '2026-03-01 10:00:00.123456+00', id });
  });

  it.each([
    ['a date that is not one', { createdAt: 'not-a-date', id }],
    ['garbage', { createdAt: 'garbage', id: 'garbage' }],
    ['February 30th', { createdAt: '2026-02-30T00:00:00Z', id }],
    ['hour 24', { createdAt: '2026-02-01T24:00:00Z', id }],
    ['a bad uuid', { createdAt: '2026-02-01T00:00:00Z', id: `${id}x` }],
    ['a missing member', { createdAt: '2026-02-01T00:00:00Z' }],
    ['an extra member', { createdAt: '2026-02-01T00:00:00Z', id, sql: 'x' }],
    ['a non-string member', { createdAt: 5, id }],
  ])('a validly signed cursor with %s → 400 naming cursor', (_name, position) => {
    const c = codec.encode('k', position as never);
    expect(() => codec.decode('k', c, shape)).toThrow(
      expect.objectContaining({
        code: 'invalid_parameter',
        errors: [{ field: 'cursor', message: 'is not a valid cursor for this listing' }],
      }),
    );
  });

  it('a cursor of another kind (listing, fund) or signed with another secret → 400', () => {
    const c = codec.encode('activity:fund-a', { createdAt: '2026-02-01T00:00:00Z', id });
    expect(() => codec.decode('activity:fund-b', c, shape)).toThrow(
      expect.objectContaining({ code: 'invalid_parameter' }),
    );
    const foreign = new CursorCodec('another-secret-entirely').encode('activity:fund-a', {
      createdAt: '2026-02-01T00:00:00Z',
      id,
    });
    expect(() => codec.decode('activity:fund-a', foreign, shape)).toThrow(
      expect.objectContaining({ code: 'invalid_parameter' }),
    );
  });

  it('bigint members stay within PostgreSQL bigint', () => {
    const big = { createdAt: 'timestamp', id: 'bigint' } as const;
    expect(
      codec.decode('k', codec.encode('k', { createdAt: '2026-02-01T00:00:00Z', id: '9223372036854775807' }), big).id,
    ).toBe('9223372036854775807');
    expect(() =>
      codec.decode('k', codec.encode('k', { createdAt: '2026-02-01T00:00:00Z', id: '9223372036854775808' }), big),
    ).toThrow();
  });

  it('timestamps: ISO and PostgreSQL text, real calendar dates only', () => {
    expect(isCursorTimestamp('2024-02-29T23:59:59.999Z')).toBe(true);
    expect(isCursorTimestamp('2025-02-29T00:00:00Z')).toBe(false);
    expect(isCursorTimestamp('2026-01-01 00:00:00+00')).toBe(true);
    expect(isCursorTimestamp('2026-01-01')).toBe(false);
  });

  it('date and decimal members: calendar days and exact decimals only; v is the version, never a member', () => {
    const shape = { d: 'date', b: 'decimal' } as const;
    expect(codec.decode('k', codec.encode('k', { d: '2024-02-29', b: '-1250000.125' }), shape)).toEqual({
      d: '2024-02-29',
      b: '-1250000.125',
    });
    for (const bad of [
      { d: '2025-02-29', b: '1' },
      { d: '2026-01-01T00:00:00Z', b: '1' },
      { d: '2026-01-01', b: '1e5' },
      { d: '2026-01-01', b: 'NaN' },
    ]) {
      expect(() => codec.decode('k', codec.encode('k', bad), shape)).toThrow(
        expect.objectContaining({ code: 'invalid_parameter' }),
      );
    }
    expect(() => codec.encode('k', { v: '2026-01-01' })).toThrow();
  });

  it('text members: a 200-character name of 4-byte characters round-trips; beyond the text limit → 400', () => {
    const name = '𝄞'.repeat(200); // 400 UTF-16 units, 800 bytes
    const c = codec.encode('investors:f', { n: name, i: '7d1e0000-0000-4000-8000-000000000000' });
    expect(c.length).toBeLessThanOrEqual(CURSOR_MAX_LENGTH);
    expect(codec.decode('investors:f', c, { n: 'text', i: 'uuid' }).n).toBe(name);
    const long = codec.encode('investors:f', {
      n: 'x'.repeat(CURSOR_TEXT_MAX + 1),
      i: '7d1e0000-0000-4000-8000-000000000000',
    });
    expect(() => codec.decode('investors:f', long, { n: 'text', i: 'uuid' })).toThrow();
    expect(() => codec.decode('investors:f', 'x'.repeat(CURSOR_MAX_LENGTH + 1), { n: 'text', i: 'uuid' })).toThrow();
  });
});
