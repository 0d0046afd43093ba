// Every jest worker talks to its own test database and Redis index, never a developer's data.
process.env.TZ = 'UTC';
process.env.DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/fundgate_test';
process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
process.env.ACTIVITY_FLUSH_MS = '50';
