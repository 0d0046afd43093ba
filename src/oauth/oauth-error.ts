/**
 * An OAuth protocol error (RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 7009): answered as
 * `{ error, error_description }` by the OAuth endpoints, not as problem+json (clients parse this shape).
 */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = error === 'invalid_client' ? 401 : 400,
  ) {
    super(`${error}: ${description}`);
  }

  body(): { error: string; error_description: string } {
    return { error: this.error, error_description: this.description };
  }
}
