import type Redis from 'ioredis';
import { ProblemError } from '../common/errors/problem';

const GIVE_BACK = `if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('DECR', KEYS[1]) end return 0`;

/**
 * Counts an attempt in a fixed window (INCR before anything else, so concurrent attempts cannot all
 * slip under the limit) and refuses it past `allowed` with 429 and Retry-After; a refused attempt
 * does not count. Sign-in failures, the account's code checks and password-reset requests count here.
 */
export async function reserveAttempt(
  redis: Redis,
  counter: string,
  { allowed, windowSeconds, refusal }: { allowed: number; windowSeconds: number; refusal: string },
): Promise<void> {
  const answers = await redis.multi().incr(counter).expire(counter, windowSeconds, 'NX').ttl(counter).exec();
  const failed = answers?.find(([err]) => err !== null);
  if (!answers || failed) throw failed?.[0] ?? new Error('the attempt could not be counted');
  if (Number(answers[0][1]) <= allowed) return;
  await giveBackAttempt(redis, counter);
  const retry = String(Math.max(1, Number(answers[2][1])));
  throw new ProblemError('rate_limited', `${refusal}; try again in ${retry} s`, undefined, { 'Retry-After': retry });
}

/** Takes back one counted attempt, unless the window ended meanwhile (a DECR would then start a count that never expires). */
export async function giveBackAttempt(redis: Redis, counter: string): Promise<void> {
  await redis.eval(GIVE_BACK, 1, counter);
}
