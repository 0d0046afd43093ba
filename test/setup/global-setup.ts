import Redis from 'ioredis';
import { dropDatabase } from '../../src/database/ensure-database';
import { migrate } from '../../src/database/migrate';

/** Recreates the test database from the migrations and empties the test Redis index. */
export default async function globalSetup(): Promise<void> {
  process.env.TZ = 'UTC';
  const databaseUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/fundgate_test';
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';
  await dropDatabase(databaseUrl);
  await migrate(databaseUrl, 'up');
  const redis = new Redis(redisUrl);
  await redis.flushdb();
  redis.disconnect();
}
