import type { AppConfig } from '../config/config';
import type { ActivityRecord, ActivityRepository } from './activity.repository';
import { ActivityLogWriter } from './activity-log.writer';

const record = (n: number): ActivityRecord => ({
  occurredAt: new Date(Date.UTC(2026, 10, 25, 0, 0, 0, n)),
  requestId: `r${n}`,
  keyId: null,
  accountId: null,
  userId: null,
  fundId: null,
  method: 'GET',
  route: '/api/v1/me',
  tool: null,
  status: 200,
  durationMs: 1,
  clientIp: null,
  userAgent: null,
});

/** A repository whose COPYs finish (or fail) when the test says so; it keeps each COPY's line count. */
function slowRepository() {
  const copies: number[] = [];
  const pending: { resolve: () => void; reject: (e: Error) => void }[] = [];
  let failNext = false;
  const repo = {
    copyLines: (lines: string[]) => {
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error('connection lost'));
      }
      copies.push(lines.length);
      return new Promise<void>((resolve, reject) => pending.push({ resolve, reject }));
    },
  } as unknown as ActivityRepository;
  return {
    repo,
    copies,
    release: () => pending.shift()?.resolve(),
    fail: () => pending.shift()?.reject(new Error('connection lost')),
    failOnce: () => (failNext = true),
  };
}

const config = { activityFlushMs: 60_000, activityBufferMax: 100_000 } as AppConfig;
const tick = () => new Promise((r) => setImmediate(r));

describe('ActivityLogWriter', () => {
  it('writes what was buffered when a flush starts; records arriving meanwhile wait for the next flush', async () => {
    const { repo, copies, release } = slowRepository();
    const writer = new ActivityLogWriter(repo, config);
    for (let i = 0; i < 30; i++) writer.record(record(i));
    const first = writer.flush();
    await tick();
    for (let i = 30; i < 40; i++) writer.record(record(i)); // while the first COPY is in flight
    release();
    await first;
    await tick();
    // no second COPY started on its own: before, the flush drained these 10 at once, one small COPY after another
    expect(copies).toEqual([30]);
    const second = writer.flush();
    await tick();
    release();
    await second;
    expect(copies).toEqual([30, 10]);
  });

  it('starts a flush as soon as 2 000 records wait, and sends at most 2 000 lines per COPY', async () => {
    const { repo, copies, release } = slowRepository();
    const writer = new ActivityLogWriter(repo, config);
    for (let i = 0; i < 1999; i++) writer.record(record(i));
    await tick();
    expect(copies).toEqual([]);
    writer.record(record(1999));
    await tick();
    expect(copies).toEqual([2000]);
    for (let i = 0; i < 4500; i++) writer.record(record(i)); // queued behind the COPY in flight
    release();
    await tick();
    expect(copies).toEqual([2000, 2000]);
    release();
    await tick();
    release();
    await tick();
    expect(copies).toEqual([2000, 2000, 2000, 500]);
    release();
  });

  it('counts a failed batch as dropped and keeps the rest for the next flush', async () => {
    const { repo, copies, release, failOnce } = slowRepository();
    const writer = new ActivityLogWriter(repo, config);
    (writer as unknown as { logger: { error: () => void } }).logger.error = () => undefined;
    for (let i = 0; i < 2500; i++) writer.record(record(i)); // the 2 000th starts a flush at once
    await tick();
    release();
    await tick();
    expect(copies).toEqual([2000, 500]);
    release();
    failOnce();
    for (let i = 0; i < 2100; i++) writer.record(record(i)); // the 2 000th starts a flush, whose first COPY fails
    await tick();
    expect(writer.dropped).toBe(2000);
    expect(copies).toEqual([2000, 500]);
    const next = writer.flush();
    await tick();
    release();
    await next;
    expect(copies).toEqual([2000, 500, 100]);
  });

  it('writes everything buffered on shutdown', async () => {
    const { repo, copies, release } = slowRepository();
    const writer = new ActivityLogWriter(repo, config);
    for (let i = 0; i < 4100; i++) writer.record(record(i));
    const done = writer.beforeApplicationShutdown();
    for (let i = 0; i < 6; i++) {
      await tick();
      release();
    }
    await done;
    expect(copies.reduce((a, b) => a + b, 0)).toBe(4100);
  });

  it('on shutdown, waits for a flush already writing although nothing is left in the buffer', async () => {
    const { repo, copies, release } = slowRepository();
    const writer = new ActivityLogWriter(repo, config);
    for (let i = 0; i < 2000; i++) writer.record(record(i)); // a flush takes all 2 000 at once
    await tick();
    expect(copies).toEqual([2000]);
    let done = false;
    const shutdown = writer.beforeApplicationShutdown().then(() => (done = true));
    await tick();
    expect(done).toBe(false); // the COPY is still writing: the pool must not close under it
    release();
    await shutdown;
    expect(done).toBe(true);
  });

  it('a failed flush puts back no more than the buffer holds; the rest is counted as dropped', async () => {
    const { repo, copies, release, fail } = slowRepository();
    const writer = new ActivityLogWriter(repo, { ...config, activityBufferMax: 5000 });
    (writer as unknown as { logger: { error: () => void } }).logger.error = () => undefined;
    for (let i = 0; i < 4500; i++) writer.record(record(i));
    await tick(); // a flush took all 4 500; its first COPY (2 000) is writing
    for (let i = 0; i < 4000; i++) writer.record(record(i)); // meanwhile the buffer fills to 4 000
    fail(); // that COPY fails: 2 000 dropped; of the 2 500 it did not reach, 1 000 fit back
    await tick();
    expect(writer.dropped).toBe(2000 + 1500);
    for (let i = 0; i < 5; i++) {
      release();
      await tick();
    }
    expect(copies).toEqual([2000, 2000, 2000, 1000]); // the failed one, then the 5 000 the buffer held
  });
});
