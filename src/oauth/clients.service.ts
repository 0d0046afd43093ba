import { Inject, Injectable } from '@nestjs/common';
import http from 'node:http';
import https from 'node:https';
import { isSafeText, quotedInput, UNSAFE_TEXT_MESSAGE } from '../common/validation/safe-text';
import { APP_CONFIG, AppConfig } from '../config/config';
import { guardedLookup, refuseLiteralPrivate } from '../webhooks/target-guard';
import { OAuthError } from './oauth-error';
import { hashSecret, newSecret } from '../common/crypto/secrets';
import { CLIENT_SECRET_PREFIX } from './oauth-tokens';
import { ClientAuthMethod, ClientRow, OAuthRepository } from './oauth.repository';

const AUTH_METHODS: ClientAuthMethod[] = ['none', 'client_secret_basic', 'client_secret_post'];
/** A client ID metadata document is small; anything larger, slower or redirected is refused. */
const DOCUMENT_MAX_BYTES = 5 * 1024;
const DOCUMENT_TIMEOUT_MS = 5_000;
const DOCUMENT_MAX_AGE_MS = 10 * 60_000;

export interface ClientMetadata {
  redirect_uris?: unknown;
  client_name?: unknown;
  client_uri?: unknown;
  token_endpoint_auth_method?: unknown;
  grant_types?: unknown;
  response_types?: unknown;
  client_id?: unknown;
  [k: string]: unknown;
}

/** A redirect URI a client may register: https, http on a loopback host (native apps), or a private-use scheme. */
export function redirectUriProblem(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2000) return 'must be a URL of at most 2000 characters';
  if (!isSafeText(value)) return UNSAFE_TEXT_MESSAGE;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.hash) return 'must not contain a fragment';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:')
    return ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)
      ? null
      : 'http is allowed for loopback hosts only';
  if (['javascript:', 'data:', 'file:', 'vbscript:', 'blob:', 'about:'].includes(url.protocol))
    return `the scheme ${url.protocol} is not allowed`;
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/.test(url.protocol)
    ? null
    : 'a private-use scheme must be a reverse domain name (e.g. com.example.app:)';
}

/** `http://127.0.0.1` or `http://[::1]`, an optional port, then the rest (path, query) as written. */
const LOOPBACK_IP_URI = /^http:\/\/(127\.0\.0\.1|\[::1\])(?::(\d{1,5}))?([/?].*)?$/s;

/**
 * Whether a redirect URI asked for at authorization is one the client registered: exactly, or — for a
 * loopback IP literal, where a native app listens on whatever port it was given (RFC 8252 §7.3, §8.3)
 * — the same but for the port (any port, 1 to 65535; scheme, address, path and query still exact).
 * `http://localhost` URIs (accepted at registration because clients such as MCP Inspector register
 * them, though RFC 8252 §8.3 advises against them) match only exactly, port included.
 */
export function redirectUriMatches(registered: string, asked: string): boolean {
  if (registered === asked) return true;
  const r = LOOPBACK_IP_URI.exec(registered);
  const a = LOOPBACK_IP_URI.exec(asked);
  if (!r || !a || r[1] !== a[1] || (r[3] ?? '') !== (a[3] ?? '')) return false;
  return a[2] === undefined || (Number(a[2]) >= 1 && Number(a[2]) <= 65535);
}

// eslint-disable-next-line no-control-regex -- stripping control characters from a client name is the point of this pattern
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/g;

/**
 * Client registration both ways: RFC 7591 dynamic registration (a generated client_id, a hashed
 * secret unless the client is public), and client ID metadata documents (the client_id is an https
 * URL whose JSON document is fetched through the webhook target guard: no private addresses, no
 * redirects, at most 5 KB in 5 s).
 */
@Injectable()
export class ClientsService {
  constructor(
    private readonly repo: OAuthRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async register(body: ClientMetadata): Promise<Record<string, unknown>> {
    const meta = validateMetadata(body, 'invalid_client_metadata');
    const clientId = `fgc_${newSecret('').slice(0, 32)}`;
    const secret = meta.method === 'none' ? null : newSecret(CLIENT_SECRET_PREFIX);
    await this.repo.insertClient(
      {
        client_id: clientId,
        kind: 'registered',
        client_name: meta.name,
        redirect_uris: meta.redirectUris,
        token_endpoint_auth_method: meta.method,
        client_secret_hash: secret ? hashSecret(secret) : null,
        client_uri: meta.clientUri,
      },
      false,
    );
    return {
      client_id: clientId,
      client_id_issued_at: Math.floor(Date.now() / 1000),
      ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      client_name: meta.name,
      redirect_uris: meta.redirectUris,
      token_endpoint_auth_method: meta.method,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...(meta.clientUri ? { client_uri: meta.clientUri } : {}),
    };
  }

  /** The client behind a client_id: registered, or (an https URL) its metadata document, fetched when stale. */
  async resolve(clientId: string): Promise<ClientRow | null> {
    if (!isSafeText(clientId)) return null; // PostgreSQL cannot compare text holding NUL
    const stored = await this.repo.client(clientId);
    if (!isMetadataDocumentId(clientId, this.config.oauthClientMetadataAllowPrivate))
      return stored?.kind === 'registered' ? stored : null;
    if (
      stored?.kind === 'metadata_document' &&
      stored.fetched_at &&
      Date.now() - stored.fetched_at.getTime() < DOCUMENT_MAX_AGE_MS
    )
      return stored;
    const doc = await fetchDocument(clientId, this.config.oauthClientMetadataAllowPrivate);
    if (doc.client_id !== clientId)
      throw new OAuthError('invalid_client', "the client metadata document's client_id must equal its URL");
    const meta = validateMetadata(doc, 'invalid_client');
    if (meta.method !== 'none')
      throw new OAuthError(
        'invalid_client',
        'a client identified by a metadata document must use token_endpoint_auth_method "none"',
      );
    await this.repo.insertClient(
      {
        client_id: clientId,
        kind: 'metadata_document',
        client_name: meta.name,
        redirect_uris: meta.redirectUris,
        token_endpoint_auth_method: 'none',
        client_secret_hash: null,
        client_uri: meta.clientUri,
      },
      true,
    );
    return this.repo.client(clientId);
  }
}

export function isMetadataDocumentId(clientId: string, allowHttp: boolean): boolean {
  if (clientId.length > 2048 || !isSafeText(clientId)) return false; // oauth_clients.client_id holds at most 2 048
  try {
    const url = new URL(clientId);
    return (
      (url.protocol === 'https:' || (allowHttp && url.protocol === 'http:')) &&
      url.pathname !== '/' &&
      !url.hash &&
      !url.username
    );
  } catch {
    return false;
  }
}

function validateMetadata(body: ClientMetadata, error: 'invalid_client_metadata' | 'invalid_client') {
  const uris = body.redirect_uris;
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > 10)
    throw new OAuthError('invalid_redirect_uri', 'redirect_uris: 1 to 10 URLs are required');
  for (const u of uris) {
    const problem = redirectUriProblem(u);
    if (problem) throw new OAuthError('invalid_redirect_uri', `redirect_uris: ${quotedInput(u, 100)} ${problem}`);
  }
  const method = body.token_endpoint_auth_method ?? 'client_secret_basic';
  if (!AUTH_METHODS.includes(method as ClientAuthMethod))
    throw new OAuthError(error, `token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`);
  const grants = body.grant_types ?? ['authorization_code'];
  if (!Array.isArray(grants) || grants.some((g) => g !== 'authorization_code' && g !== 'refresh_token')) {
    throw new OAuthError(error, 'grant_types: only authorization_code and refresh_token are supported');
  }
  const responses = body.response_types ?? ['code'];
  if (!Array.isArray(responses) || responses.some((r) => r !== 'code'))
    throw new OAuthError(error, 'response_types: only code is supported');
  const name =
    typeof body.client_name === 'string' ? body.client_name.replace(CONTROL_CHARACTERS, '').trim().slice(0, 200) : '';
  if (typeof body.client_uri === 'string' && !isSafeText(body.client_uri))
    throw new OAuthError(error, `client_uri ${UNSAFE_TEXT_MESSAGE}`);
  const clientUri =
    typeof body.client_uri === 'string' && /^https:\/\//.test(body.client_uri) ? body.client_uri.slice(0, 2000) : null;
  return {
    redirectUris: uris as string[],
    method: method as ClientAuthMethod,
    name: name || new URL(uris[0] as string).host.slice(0, 200) || 'Unnamed client',
    clientUri,
  };
}

/** GET the document: guarded address, no redirects, bounded size and time; JSON object or an OAuthError. */
function fetchDocument(target: string, allowPrivate: boolean): Promise<ClientMetadata> {
  return new Promise((resolve, reject) => {
    const fail = (why: string) =>
      reject(new OAuthError('invalid_client', `the client metadata document could not be used: ${why}`));
    let url: URL;
    try {
      url = new URL(target);
      refuseLiteralPrivate(url, allowPrivate);
    } catch (err) {
      return fail((err as Error).message);
    }
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.get(
      url,
      { lookup: guardedLookup(allowPrivate), headers: { accept: 'application/json' }, timeout: DOCUMENT_TIMEOUT_MS },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return fail(`the URL answered ${res.statusCode} (redirects are not followed)`);
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > DOCUMENT_MAX_BYTES) {
            req.destroy();
            return fail(`larger than ${DOCUMENT_MAX_BYTES} bytes`);
          }
          chunks.push(c);
        });
        res.on('end', () => {
          try {
            const doc = JSON.parse(Buffer.concat(chunks).toString('utf8'));
            if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return fail('not a JSON object');
            resolve(doc as ClientMetadata);
          } catch {
            fail('not JSON');
          }
        });
      },
    );
    const deadline = setTimeout(
      () => req.destroy(new Error(`no answer within ${DOCUMENT_TIMEOUT_MS} ms`)),
      DOCUMENT_TIMEOUT_MS,
    );
    req.on('close', () => clearTimeout(deadline));
    req.on('error', (err) => fail(err.message));
  });
}
