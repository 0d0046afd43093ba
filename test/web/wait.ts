/**
 * The value `read` answers once it equals `want`, or, after the timeout, the value as it then is (for
 * the caller's assertion to report): for what a page sets in a passive effect, after it has painted
 * (document.title, the focused element), which a waitFor on an element does not wait for.
 */
export async function settledValue<T>(read: () => Promise<T>, want: T, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (Object.is(value, want) || Date.now() >= until) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const DAY_MS = 86_400_000;

/**
 * Returns at once unless the next UTC midnight is less than `marginMs` away; then waits until it has
 * passed. The calculators' daily cap (calc-daily) is a fixed window aligned to UTC midnight: a test
 * that spends one window's allowance over several requests would see it reset half-way, counting
 * "1 left" again or getting a 200 where the cap gives 429. Not a synchronisation with the page.
 */
export async function clearOfUtcMidnight(marginMs = 60_000): Promise<void> {
  const left = DAY_MS - (Date.now() % DAY_MS);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 1000));
}
