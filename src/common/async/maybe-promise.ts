/** A value now, or a promise of it: what a hot path answers when it can decide without waiting on I/O. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `next(value)` at once when the value is there, after it when it is a promise: the answer stays
 * synchronous exactly when the input was (Nest, for one, awaits a guard only when it returns a promise).
 */
export function andThen<T, R>(value: MaybePromise<T>, next: (v: T) => R): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
