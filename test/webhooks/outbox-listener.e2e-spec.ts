import { Logger } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { createDataSource } from '../../src/database/data-source';
import { outboxOver } from './outbox';
import { OutboxListener } from '../../src/webhooks/outbox-listener';

const DB = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/fundgate_test';

describe('outbox LISTEN/NOTIFY (e2e)', () => {
  const db = createDataSource(DB, 2);
  let listener: OutboxListener;
  let wakes = 0;
  beforeAll(async () => {
    await db.initialize();
    listener = new OutboxListener(DB, () => wakes++, new Logger('test'));
    listener.start();
    for (let i = 0; i < 200 && wakes === 0; i++) await new Promise((r) => setTimeout(r, 25)); // the wake-up once listening
    expect(wakes).toBe(1);
  });
  afterAll(async () => {
    await listener.stop();
    await db.destroy();
  });

  it('an event wakes the dispatcher when its transaction commits, not before, and never when it rolls back', async () => {
    const slug = `fund-${randomBytes(4).toString('hex')}`;
    const [fund] = await db.query<{ id: string }[]>(`INSERT INTO funds (slug, name) VALUES ($1, $1) RETURNING id`, [
      slug,
    ]);
    const settle = () => new Promise((r) => setTimeout(r, 300));
    await db.transaction(async (m) => {
      await outboxOver(db).emit(m, fund.id, 'nav.published', { n: 1 });
      await settle();
      expect(wakes).toBe(1); // not yet committed
    });
    await settle();
    expect(wakes).toBe(2);
    await db
      .transaction(async (m) => {
        await outboxOver(db).emit(m, fund.id, 'nav.published', { n: 2 });
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await settle();
    expect(wakes).toBe(2);
  });
});
