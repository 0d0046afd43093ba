// Every jest worker talks to its own test database and Redis index, never a developer's data.
process.env.TZ = 'UTC';
process.env.DATABASE_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/fundgate_test';
process.env.REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/15';
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
process.env.WEBHOOK_ALLOW_PRIVATE = 'true';
process.env.ACTIVITY_FLUSH_MS = '50';
// Every test file of a run signs in and calls from 127.0.0.1 through the one test Redis, so the
// anonymous per-IP window (fund-minute, free: 120 a minute) would be shared by all of them and trip
// at random. Tests of that limit set their own RATE_LIMITS (bootApp's env wins over this default).
process.env.RATE_LIMITS ??= JSON.stringify({ 'fund-minute': { free: 100_000 } });
// The hourly retention sweep runs once at the first boot of a worker-role app on each database: it
// would move the fixed-date activity rows (2026-01-15, …) some suites insert under them. Off unless
// a test turns it on (test/retention passes its own days).
process.env.ACTIVITY_RETENTION_DAYS ??= '0';
process.env.WEBHOOK_RETENTION_DAYS ??= '0';
