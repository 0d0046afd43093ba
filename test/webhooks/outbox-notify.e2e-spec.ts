import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { createDataSource } from '../../src/database/data-source';
import { NOTIFY_COALESCE_AFTER, NOTIFY_COALESCE_MS } from '../../src/webhooks/deliveries.repository';
import { outboxOver } from './outbox';
import { OutboxListener } from '../../src/webhooks/outbox-listener';
import { isolatedDatabase } from './isolated-db';

/**
 * NOTIFY is coalesced (each notifying commit serializes on PostgreSQL's notify-queue lock): an
 * event committed while the NOTIFY_COALESCE_AFTER newest undispatched events are all younger than
 * NOTIFY_COALESCE_MS sends none. A database of its own: no dispatcher dispatches these events.
 */
describe('outbox NOTIFY coalescing (e2e)', () => {
  let db: ReturnType<typeof createDataSource>;
  let listener: OutboxListener;
  let wakes = 0;
  beforeAll(async () => {
    const url = await isolatedDatabase('whnotify');
    db = createDataSource(url, 2);
    await db.initialize();
    listener = new OutboxListener(url, () => wakes++, new Logger('test'));
    listener.start();
    for (let i = 0; i < 200 && wakes === 0; i++) await new Promise((r) => setTimeout(r, 25));
    expect(wakes).toBe(1);
  });
  afterAll(async () => {
    await listener.stop();
    await db.destroy();
  });

  it('in a burst (NOTIFY_COALESCE_AFTER undispatched events, all recent) an event sends no NOTIFY; after the window, or once dispatched, it does', async () => {
    const slug = `fund-${randomBytes(4).toString('hex')}`;
    const [fund] = await db.query<{ id: string }[]>(`INSERT INTO funds (slug, name) VALUES ($1, $1) RETURNING id`, [
      slug,
    ]);
    const emit = (n: number) => db.transaction((m) => outboxOver(db).emit(m, fund.id, 'nav.published', { n }));
    const settle = () => new Promise((r) => setTimeout(r, 300));
    const started = Date.now();
    for (let n = 1; n <= NOTIFY_COALESCE_AFTER + 1; n++) await emit(n);
    const quick = Date.now() - started < NOTIFY_COALESCE_MS;
    await settle();
    // the first NOTIFY_COALESCE_AFTER notified, the next did not
    expect({ quick, wakes }).toEqual({ quick: true, wakes: 1 + NOTIFY_COALESCE_AFTER });
    await emit(10); // the undispatched ones are older than the window now
    await settle();
    expect(wakes).toBe(2 + NOTIFY_COALESCE_AFTER);
    await db.query(`UPDATE webhook_events SET dispatched_at = now() WHERE fund_id = $1`, [fund.id]);
    await emit(11); // nothing undispatched
    await settle();
    expect(wakes).toBe(3 + NOTIFY_COALESCE_AFTER);
  });
});
