import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { createApp } from './app.factory';
import { ConfigError, loadConfig } from './config/config';
import { JsonLogger } from './common/logging/json-logger';
import { assertReachable, ServiceUnreachableError } from './common/startup/reachability';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = new JsonLogger(config.logLevel);
  try {
    // PostgreSQL is required: one clear line instead of TypeORM's retry stack traces. (Redis may be
    // away: the server starts degraded and its client logs the same kind of line once.)
    await assertReachable('PostgreSQL', 'DATABASE_URL', config.databaseUrl);
  } catch (err) {
    if (!(err instanceof ServiceUnreachableError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
  if (config.role === 'worker') {
    const ctx = await NestFactory.createApplicationContext(AppModule.register(config), { logger });
    ctx.enableShutdownHooks();
    logger.log(`fundgate worker started`, 'Main');
    return;
  }
  const app = await createApp(config);
  await app.listen({ port: config.port, host: config.host });
  logger.log(`fundgate ${config.role} listening on http://${config.host}:${config.port} (docs at /api/docs)`, 'Main');
}

void main();
