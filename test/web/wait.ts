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
