import { jobDeliveries } from './delivery-processor';

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
