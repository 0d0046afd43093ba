import { deliveryJobs } from './outbox-dispatcher';

describe('deliveryJobs (one BullMQ job per subscription and batch)', () => {
  const due = (id: string, sub: string, generation = 1) => ({ id, generation, subscription_id: sub });

  it('groups by subscription in order, names each job after its first delivery, and splits at the batch size', () => {
    const jobs = deliveryJobs(
      [due('a1', 'A'), due('b1', 'B'), due('a2', 'A', 3), due('a3', 'A'), due('b2', 'B'), due('a4', 'A')],
      3,
    );
    expect(jobs).toEqual([
      {
        jobId: expect.stringMatching(/^a1-g1-[\w-]{16}$/),
        deliveries: [
          { id: 'a1', generation: 1 },
          { id: 'a2', generation: 3 },
          { id: 'a3', generation: 1 },
        ],
      },
      {
        jobId: expect.stringMatching(/^b1-g1-[\w-]{16}$/),
        deliveries: [
          { id: 'b1', generation: 1 },
          { id: 'b2', generation: 1 },
        ],
      },
      { jobId: 'a4-g1', deliveries: [{ id: 'a4', generation: 1 }] },
    ]);
  });

  it('a lone delivery keeps the job id it always had (<id>-g<generation>)', () => {
    expect(deliveryJobs([due('d', 'S', 2)])).toEqual([{ jobId: 'd-g2', deliveries: [{ id: 'd', generation: 2 }] }]);
  });

  it('the same group gets the same job id again; a group that gained a row (after a rolled-back enqueue) a new one', () => {
    const ab = deliveryJobs([due('a', 'S'), due('b', 'S')]);
    expect(deliveryJobs([due('a', 'S'), due('b', 'S')])).toEqual(ab);
    const abc = deliveryJobs([due('a', 'S'), due('b', 'S'), due('c', 'S')]);
    expect(abc[0].jobId).not.toBe(ab[0].jobId);
    expect(abc[0].jobId.startsWith('a-g1-')).toBe(true);
    expect(deliveryJobs([due('a', 'S'), due('b', 'S', 2)])[0].jobId).not.toBe(ab[0].jobId);
  });
});
