import { andThen } from './maybe-promise';

describe('andThen', () => {
  it('stays synchronous for a value and follows a promise, errors included', async () => {
    expect(andThen(2, (v) => v * 3)).toBe(6);
    const later = andThen(Promise.resolve(2), (v) => v * 3);
    expect(later).toBeInstanceOf(Promise);
    await expect(later).resolves.toBe(6);
    expect(() =>
      andThen(1, () => {
        throw new Error('now');
      }),
    ).toThrow('now');
    await expect(
      andThen(Promise.resolve(1), () => {
        throw new Error('later');
      }),
    ).rejects.toThrow('later');
  });
});
