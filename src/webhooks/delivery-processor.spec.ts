import { jobDeliveries, mapLimit, Slots } from './delivery-processor';

describe('jobDeliveries', () => {
  it('answers the batch a job carries', () => {
    const deliveries = [
      { id: 'a', generation: 1 },
      { id: 'b', generation: 2 },
    ];
    expect(jobDeliveries({ deliveries })).toEqual(deliveries);
  });

  it('reads a job enqueued before batching (one delivery) as a batch of one', () => {
    expect(jobDeliveries({ deliveryId: 'd', generation: 3 })).toEqual([{ id: 'd', generation: 3 }]);
  });
});

/** Work that records how many holders run at once; `release()` lets every started one finish. */
function gauge() {
  let running = 0;
  let peak = 0;
  const gates: (() => void)[] = [];
  const work = async <T>(value: T): Promise<T> => {
    running++;
    peak = Math.max(peak, running);
    await new Promise<void>((resolve) => gates.push(resolve));
    running--;
    return value;
  };
  const release = async () => {
    while (gates.length > 0 || running > 0) {
      gates.splice(0).forEach((open) => open());
      await new Promise((r) => setImmediate(r));
    }
  };
  return { work, release, peak: () => peak, holding: () => gates.length };
}

describe('Slots (the process-wide in-flight cap)', () => {
  it('never lets more than its slots run at once, and runs every waiter in the end', async () => {
    const slots = new Slots(3);
    const g = gauge();
    const all = Promise.all(Array.from({ length: 10 }, (_, i) => slots.run(() => g.work(i))));
    await new Promise((r) => setImmediate(r));
    expect(g.holding()).toBe(3); // the other seven wait for a slot
    await g.release();
    expect(await all).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(g.peak()).toBe(3);
  });

  it('frees the slot when the work fails', async () => {
    const slots = new Slots(1);
    await expect(slots.run(() => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    await expect(slots.run(() => Promise.resolve('next'))).resolves.toBe('next');
  });
});

describe('mapLimit (the per-job cap)', () => {
  it('keeps at most `limit` in flight and answers in the order of the items', async () => {
    const g = gauge();
    const done = mapLimit([5, 4, 3, 2, 1, 0], 2, (n) => g.work(n * 10));
    await new Promise((r) => setImmediate(r));
    expect(g.holding()).toBe(2);
    await g.release();
    expect(await done).toEqual([50, 40, 30, 20, 10, 0]);
    expect(g.peak()).toBe(2);
  });
});
