import { formatDuration, type RateLimitInfo } from '../shared/api';

/** The daily cap and what is left of it, read from the RateLimit headers of the last answer. */
export function RateLimitNote({ rate }: { rate: RateLimitInfo | null }) {
  if (!rate || rate.limit === null) {
    return (
      <p className="muted small" data-testid="rate-limit">
        No key needed. A daily cap per address applies; what is left of it shows after the first calculation.
      </p>
    );
  }
  return (
    <p className="small" data-testid="rate-limit" role="status">
      Daily cap: <strong>{rate.limit}</strong> calculations ·{' '}
      <strong data-testid="rate-remaining">{rate.remaining ?? '?'}</strong> left
      {rate.reset !== null && <> · resets in {formatDuration(rate.reset)}</>}
    </p>
  );
}
