import { BATCH_MAX, HOT_PER_SECOND, WindowReservations, type Reserve } from './window-reservations';

/** One shared Redis counter; counts INCRBY round trips. */
function sharedCounter() {
  const state = { total: 0, calls: 0 };
  const reserve: Reserve = async (n) => {
    state.calls++;
    await Promise.resolve();
    return (state.total += n);
  };
  return { state, reserve };
}

const NOW = 1_700_000_000_000;

describe('WindowReservations', () => {
  it('counts a caller that is not hot one request at a time: exact admission at the limit', async () => {
    const r = new WindowReservations();
    const { state, reserve } = sharedCounter();
    const answers = [];
    for (let i = 0; i < 7; i++) answers.push(await r.admit('fund-minute:k:1', 1, 5, NOW, reserve));
    expect(answers.map((a) => a.admitted)).toEqual([true, true, true, true, true, false, false]);
    expect(answers.map((a) => a.used)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(state.calls).toBe(7);
  });

  it('a hot caller takes batches: far fewer round trips, never more admitted than the limit across two instances, bounded under-admission', async () => {
    const limit = 20_000;
    const a = new WindowReservations();
    const b = new WindowReservations();
    const { state, reserve } = sharedCounter();
    let admitted = 0;
    const requests = 2 * limit;
    for (let i = 0; i < requests; i++) {
      const ans = await (i % 2 === 0 ? a : b).admit('fund-minute:k:1', 1, limit, NOW + Math.floor(i / 40), reserve); // 40 per ms: hot
      if (ans.admitted) admitted++;
    }
    expect(admitted).toBeLessThanOrEqual(limit);
    expect(admitted).toBeGreaterThanOrEqual(limit - 2 * (BATCH_MAX - 1));
    expect(state.calls).toBeLessThan(requests / 4);
    // once the window is known to be full, a hot caller is refused without Redis
    const calls = state.calls;
    for (let i = 0; i < 100; i++)
      expect((await a.admit('fund-minute:k:1', 1, limit, NOW + 1000, reserve)).admitted).toBe(false);
    expect(state.calls).toBe(calls);
  });

  it('concurrent requests of a hot caller share one reservation round trip; a new window starts afresh', async () => {
    const r = new WindowReservations();
    const { state, reserve } = sharedCounter();
    for (let i = 0; i < HOT_PER_SECOND; i++) await r.admit('c', 1, 1_000_000, NOW, reserve);
    const before = state.calls;
    const answers = await Promise.all(Array.from({ length: 64 }, async () => r.admit('c', 1, 1_000_000, NOW, reserve)));
    expect(answers.every((x) => x.admitted)).toBe(true);
    expect(state.calls - before).toBeLessThanOrEqual(Math.ceil(64 / BATCH_MAX) + 1);
    const next = await r.admit('c', 2, 1_000_000, NOW + 60_000, (n) => Promise.resolve(n)); // a fresh counter
    expect(next).toEqual({ admitted: true, used: 1 });
  });

  it('answers synchronously from a reserved slot or a full window, and only then', async () => {
    const r = new WindowReservations();
    const { state, reserve } = sharedCounter();
    expect(r.admit('c', 1, 1_000_000, NOW, reserve)).toBeInstanceOf(Promise); // not hot: Redis counts it
    for (let i = 0; i < HOT_PER_SECOND; i++) await r.admit('c', 1, 1_000_000, NOW, reserve);
    await r.admit('c', 1, 1_000_000, NOW, reserve); // hot: reserves a batch
    const calls = state.calls;
    const local = r.admit('c', 1, 1_000_000, NOW, reserve);
    expect(local).not.toBeInstanceOf(Promise);
    expect(local).toMatchObject({ admitted: true });
    expect(state.calls).toBe(calls);
    const full = new WindowReservations();
    const own = sharedCounter();
    for (let i = 0; i < HOT_PER_SECOND + 40; i++) await full.admit('f', 1, 100, NOW, own.reserve);
    const counted = own.state.calls;
    expect(full.admit('f', 1, 100, NOW, own.reserve)).toEqual({ admitted: false, used: expect.any(Number) });
    expect(own.state.calls).toBe(counted); // a window known to be full costs no Redis round trip
  });
});
