import { retryDelayMs } from './retry-schedule';

describe('retryDelayMs (the retry schedule BullMQ waits and next_attempt_at shows)', () => {
  const DEFAULT = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000];

  it('after the N-th failed attempt waits the N-th step: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelayMs(DEFAULT, n))).toEqual(DEFAULT);
  });

  it('holds to the first step below one failure and to the last past the end', () => {
    expect(retryDelayMs(DEFAULT, 0)).toBe(5_000);
    expect(retryDelayMs(DEFAULT, 8)).toBe(36_000_000);
    expect(retryDelayMs([2_000, 60_000], 5)).toBe(60_000);
  });

  it('a one-step schedule always waits that step', () => {
    expect([0, 1, 2].map((n) => retryDelayMs([200], n))).toEqual([200, 200, 200]);
  });
});
