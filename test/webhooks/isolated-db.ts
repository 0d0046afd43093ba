import { dropDatabase } from '../../src/database/ensure-database';
import { migrate } from '../../src/database/migrate';

/**
 * A freshly migrated database of its own for a webhook spec. Outbox dispatchers of other specs'
 * apps (running in parallel against the shared test database, with other retry schedules) then
 * never see this spec's events, and the BullMQ prefix (which names the database) keeps its jobs apart.
 */
export async function isolatedDatabase(suffix: string): Promise<string> {
  const base = new URL(process.env.DATABASE_URL!);
  base.pathname = `/${decodeURIComponent(base.pathname.slice(1))}_${suffix}`;
  const url = base.toString();
  await dropDatabase(url);
  await migrate(url, 'up');
  return url;
}
