import http from 'node:http';
import https from 'node:https';
import { guardedLookup, refuseLiteralPrivate } from './target-guard';

export interface SendResult {
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  responseSnippet: string | null;
}

const SNIPPET_BYTES = 512;
/**
 * How long the body may take once the status line and headers are in: the status decides the
 * attempt, the body only feeds the log's snippet. A receiver that streams slowly (or sends a huge
 * body) is cut off after this, its status still counting.
 */
export const BODY_READ_MS = 1000;
/**
 * How long a new connection may take to open, apart from the answer's timeout: a target that drops
 * SYNs fails in seconds instead of holding its slot for WEBHOOK_TIMEOUT_MS.
 */
export const CONNECT_TIMEOUT_MS = 3000;
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

/**
 * POSTs exactly `body` once. Never follows redirects (a 3xx is just a non-2xx answer), gives up
 * when no connection is open after `connectTimeoutMs` (CONNECT_TIMEOUT_MS) or no status has arrived
 * after `timeoutMs`, refuses private targets unless allowed, and http:// targets when
 * `requireHttps`. The status settles the attempt as soon as the headers are in: at
 * most SNIPPET_BYTES of the body are read, for at most BODY_READ_MS, then the connection is
 * destroyed (never handed back to the keep-alive pool with an unread body). Never throws.
 */
export function sendWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; allowPrivate: boolean; requireHttps?: boolean; connectTimeoutMs?: number },
): Promise<SendResult> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    let latencyMs: number | null = null; // until the headers, then fixed: the body is not the receiver's answer time
    const finish = (r: Omit<SendResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, latencyMs: latencyMs ?? elapsed() });
    };
    let url: URL;
    try {
      url = new URL(target);
      refuseCleartext(url, opts.requireHttps);
      refuseLiteralPrivate(url, opts.allowPrivate);
    } catch (err) {
      finish({ statusCode: null, error: (err as Error).message, responseSnippet: null });
      return;
    }
    const lib = url.protocol === 'https:' ? https : http;
    const req = lib.request(
      url,
      {
        method: 'POST',
        agent: url.protocol === 'https:' ? agents.https : agents.http,
        lookup: guardedLookup(opts.allowPrivate),
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        latencyMs = elapsed();
        const statusCode = res.statusCode ?? null;
        const chunks: Buffer[] = [];
        let size = 0;
        const settle = () => finish({ statusCode, error: null, responseSnippet: snippetOf(chunks) });
        // Stop reading: the socket goes with the request (destroyed, so the agent never reuses it).
        const cutOff = () => {
          settle();
          req.destroy();
        };
        clearTimeout(timer);
        timer = setTimeout(cutOff, BODY_READ_MS);
        res.on('data', (c: Buffer) => {
          chunks.push(c);
          size += c.length;
          if (size >= SNIPPET_BYTES && !res.complete) cutOff();
        });
        res.on('end', settle); // read to the end: the socket goes back to the pool
        res.on('error', settle); // cut off mid-body: the status still counts
      },
    );
    timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    const connectMs = Math.min(opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS, opts.timeoutMs);
    req.on('socket', (socket) => {
      if (!socket.connecting) return; // a kept-alive socket
      const connecting = setTimeout(() => req.destroy(new Error(`connect timed out after ${connectMs} ms`)), connectMs);
      const done = () => clearTimeout(connecting);
      socket.once('connect', done).once('close', done);
    });
    req.on('error', (err) => finish({ statusCode: null, error: err.message, responseSnippet: null }));
    req.end(body);
  });
}

/**
 * WEBHOOK_REQUIRE_HTTPS at send time: a subscription stored with an http:// URL before the flag was
 * turned on is refused at each attempt (failed, retried, like a private target), never sent in cleartext.
 */
function refuseCleartext(url: URL, requireHttps = false): void {
  if (requireHttps && url.protocol !== 'https:')
    throw new Error(
      `refused: ${url.protocol}// target while WEBHOOK_REQUIRE_HTTPS is on (fund events are not sent in cleartext); change the subscription's URL to https`,
    );
}

/**
 * The first bytes of a receiver's answer as storable text: PostgreSQL text holds no NUL, and one
 * binary answer would otherwise fail the recording of its whole batch (every outcome of it lost and
 * sent again), so NULs become U+FFFD like any byte that is not UTF-8.
 */
export function snippetOf(chunks: Buffer[]): string {
  return Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8').replaceAll('\u0000', '\uFFFD');
}
