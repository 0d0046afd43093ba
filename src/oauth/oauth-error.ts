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

/**
 * An authorization request refused after its client and redirect URI were recognised: the error
 * belongs to the client, but any client can be registered (RFC 7591, metadata documents), so the
 * browser is not sent there automatically (RFC 9700 §4.11.2: a link on fundgate's own page, which
 * names the host, would otherwise make any refusal a redirect to a site of the registrant's choice).
 */
export class OAuthReturnError extends OAuthError {
  constructor(
    error: string,
    description: string,
    /** The client's redirect URI with error, error_description, state and iss. */
    readonly returnTo: string,
  ) {
    super(error, description, 400);
  }
}
