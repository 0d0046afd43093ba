import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, createServer as createNetServer } from 'node:net';

/** A free loopback port (the app must know its public base URL before it listens). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createNetServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

export interface Callback {
  code: string | null;
  state: string | null;
  iss: string | null;
  error: string | null;
}

/**
 * The MCP client's side of the redirect: a loopback HTTP server that records the authorization
 * response, and (optionally) serves the client's ID metadata document.
 */
export class LocalClientServer {
  private server!: Server;
  base = '';
  document: Record<string, unknown> | null = null;
  private waiting: ((c: Callback) => void) | null = null;
  last: Callback | null = null;

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', this.base);
      if (url.pathname === '/client.json' && this.document) {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.document));
        return;
      }
      if (url.pathname === '/callback') {
        const p = url.searchParams;
        this.last = { code: p.get('code'), state: p.get('state'), iss: p.get('iss'), error: p.get('error') };
        this.waiting?.(this.last);
        res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<!doctype html><title>done</title><p>Signed in; you can close this tab.</p>');
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  get redirectUri(): string {
    return `${this.base}/callback`;
  }

  nextCallback(): Promise<Callback> {
    return new Promise((resolve) => (this.waiting = resolve));
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

/** An in-memory OAuthClientProvider as an MCP host implements it; the "browser" is whoever reads `authorizationUrl`. */
export class MemoryProvider implements OAuthClientProvider {
  info: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | null = null;

  constructor(
    private readonly redirect: string,
    private readonly metadata: Partial<OAuthClientMetadata> = {},
    preRegistered?: OAuthClientInformationMixed,
  ) {
    this.info = preRegistered;
  }

  get redirectUrl(): string {
    return this.redirect;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Test Agent',
      redirect_uris: [this.redirect],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      ...this.metadata,
    };
  }

  state(): string {
    return 'state-123';
  }

  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.info;
  }

  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.info = info;
  }

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }

  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }

  saveCodeVerifier(v: string): void {
    this.verifier = v;
  }

  codeVerifier(): string {
    return this.verifier;
  }
}
