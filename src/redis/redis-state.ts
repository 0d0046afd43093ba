import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { ProblemError } from '../common/errors/problem';
import { redactUrl, START_SERVICES_HINT } from '../common/startup/reachability';

/** Seconds a client is told to wait when Redis is away (ioredis reconnects every ≤ 2 s). */
export const REDIS_RETRY_AFTER_SECONDS = 5;
/** How long a request waits for a (re)connecting Redis before answering 503. */
export const REDIS_READY_WAIT_MS = 150;

const watched = new WeakMap<Redis, string>();
/** Reachability per Redis URL, shared by every client of this process (main, BullMQ): one line per change, not one per client. */
const stateByUrl = new Map<string, 'up' | 'down'>();

/**
 * Logs Redis reachability once per change of state, as one JSON line (the ioredis default
 * without an `error` listener is a raw stack trace per reconnect attempt). ioredis reconnects by
 * itself; the "reachable again" line says when it did.
 */
export function watchRedis(client: Redis, name: string, url: string): Redis {
  if (watched.has(client)) return client;
  watched.set(client, url);
  const logger = new Logger('Redis');
  client.on('error', (err: Error) => {
    if (stateByUrl.get(url) === 'down') return;
    stateByUrl.set(url, 'down');
    logger.warn(
      `redis unreachable at ${redactUrl(url)} (REDIS_URL; first noticed by the ${name} client): ${err.message}; ` +
        `rate-limited routes answer 503 until it is back, reconnecting automatically. ${START_SERVICES_HINT}`,
    );
  });
  client.on('ready', () => {
    if (stateByUrl.get(url) === 'down') logger.log(`redis reachable again at ${redactUrl(url)}`);
    stateByUrl.set(url, 'up');
  });
  return client;
}

export function redisUnavailable(what: string): ProblemError {
  return new ProblemError(
    'unavailable',
    `${what} is temporarily unavailable (Redis unreachable); retry in ${REDIS_RETRY_AFTER_SECONDS} s`,
    undefined,
    { 'Retry-After': String(REDIS_RETRY_AFTER_SECONDS) },
  );
}

/**
 * Resolves when the client is ready, waiting at most `ms` for a connection in progress (at boot);
 * false at once while its Redis is known to be away.
 */
export function readyWithin(client: Redis, ms = REDIS_READY_WAIT_MS): Promise<boolean> {
  if (client.status === 'ready') return Promise.resolve(true);
  const url = watched.get(client);
  if (url !== undefined && stateByUrl.get(url) === 'down') return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      client.off('ready', onReady);
      resolve(ok);
    };
    const onReady = () => done(true);
    const timer = setTimeout(() => done(false), ms);
    client.once('ready', onReady);
  });
}

/**
 * Runs a Redis command for a request: a 503 `unavailable` with Retry-After at once when Redis is
 * away (no 2 s command timeout per request), and when the command itself fails.
 */
export async function withRedis<T>(client: Redis, what: string, command: () => Promise<T>): Promise<T> {
  if (!(await readyWithin(client))) throw redisUnavailable(what);
  try {
    return await command();
  } catch (err) {
    if (err instanceof ProblemError) throw err;
    throw redisUnavailable(what);
  }
}
