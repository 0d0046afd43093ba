import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { createDataSource } from '../../src/database/data-source';
import { NOTIFY_COALESCING, type NotifyCoalescing } from '../../src/webhooks/deliveries.repository';
import { outboxOver } from './outbox';
import { OutboxListener } from '../../src/webhooks/outbox-listener';
import { isolatedDatabase } from './isolated-db';

/**
 * NOTIFY is coalesced (each notifying commit serializes on PostgreSQL's notify-queue lock): an
 * event committed while the `after` newest undispatched events are all younger than `withinMs`
 * sends none. A database of its own: no dispatcher dispatches these events. The window is widened
 * from production's 50 ms (the same statement, the same count) so that four commits fit in it on
 * a loaded CI machine: with 50 ms, four commits of parallel suites' run once took longer.
 */
describe('outbox NOTIFY coalescing (e2e)', () => {
  const coalescing: NotifyCoalescing = { after: NOTIFY_COALESCING.after, withinMs: 2000 };
  let db: ReturnType<typeof createDataSource>;
  let listener: OutboxListener;
  let wakes = 0;
  /** Waits until `n` wakes arrived (NOTIFY is asynchronous), then a little more to see no extra one. */
  const wakesSettleAt = async (n: number): Promise<number> => {
    for (let i = 0; i < 200 && wakes < n; i++) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 150));
    return wakes;
  };
  beforeAll(async () => {
    const url = await isolatedDatabase('whnotify');
    db = createDataSource(url, 2);
    await db.initialize();
    listener = new OutboxListener(url, () => wakes++, new Logger('test'));
    listener.start();
    expect(await wakesSettleAt(1)).toBe(1); // the listener's first pass on connecting
  });
  afterAll(async () => {
    await listener.stop();
    await db.destroy();
  });

  it('in a burst (`after` undispatched events, all recent) an event sends no NOTIFY; after the window, or once dispatched, it does', async () => {
    const slug = `fund-${randomBytes(4).toString('hex')}`;
    const [fund] = await db.query<{ id: string }[]>(`INSERT INTO funds (slug, name) VALUES ($1, $1) RETURNING id`, [
      slug,
    ]);
    const outbox = outboxOver(db, coalescing);
    const emit = (n: number) => db.transaction((m) => outbox.emit(m, fund.id, 'nav.published', { n }));
    const started = Date.now();
    for (let n = 1; n <= coalescing.after + 1; n++) await emit(n);
    const burstEnd = Date.now();
    const quick = burstEnd - started < coalescing.withinMs;
    // the first `after` notified, the next did not
    expect({ quick, wakes: await wakesSettleAt(1 + coalescing.after) }).toEqual({
      quick: true,
      wakes: 1 + coalescing.after,
    });
    // every event of the burst was created before burstEnd: a window later they are all old
    await new Promise((r) => setTimeout(r, burstEnd + coalescing.withinMs + 50 - Date.now()));
    await emit(10); // the undispatched ones are older than the window now
    expect(await wakesSettleAt(2 + coalescing.after)).toBe(2 + coalescing.after);
    await db.query(`UPDATE webhook_events SET dispatched_at = now() WHERE fund_id = $1`, [fund.id]);
    await emit(11); // nothing undispatched
    expect(await wakesSettleAt(3 + coalescing.after)).toBe(3 + coalescing.after);
  });
});
