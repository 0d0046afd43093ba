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
const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 256 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

/**
 * POSTs exactly `body` once. Never follows redirects (a 3xx is just a non-2xx answer), gives up
 * after `timeoutMs` in total, and refuses private targets unless allowed. Never throws.
 */
export function sendWebhook(
  target: string,
  body: string,
  headers: Record<string, string>,
  opts: { timeoutMs: number; allowPrivate: boolean },
): Promise<SendResult> {
  const started = process.hrtime.bigint();
  const elapsed = () => Number((process.hrtime.bigint() - started) / 1_000_000n);
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    // eslint-disable-next-line prefer-const -- `finish` (declared before the request exists) clears it; a const set later would be in its TDZ on the early-error path
    let timer: NodeJS.Timeout | undefined;
    const finish = (r: Omit<SendResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...r, latencyMs: elapsed() });
    };
    let url: URL;
    try {
      url = new URL(target);
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
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          if (size < SNIPPET_BYTES) chunks.push(c);
          size += c.length;
        });
        res.on('end', () =>
          finish({
            statusCode: res.statusCode ?? null,
            error: null,
            responseSnippet: snippetOf(chunks),
          }),
        );
        res.on('error', (err) =>
          finish({ statusCode: res.statusCode ?? null, error: err.message, responseSnippet: null }),
        );
      },
    );
    timer = setTimeout(() => {
      req.destroy(new Error(`timed out after ${opts.timeoutMs} ms`));
    }, opts.timeoutMs);
    req.on('error', (err) => finish({ statusCode: null, error: err.message, responseSnippet: null }));
    req.end(body);
  });
}

/**
 * The first bytes of a receiver's answer as storable text: PostgreSQL text holds no NUL, and one
 * binary answer would otherwise fail the recording of its whole batch (every outcome of it lost and
 * sent again), so NULs become U+FFFD like any byte that is not UTF-8.
 */
export function snippetOf(chunks: Buffer[]): string {
  return Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8').replaceAll('\u0000', '\uFFFD');
}
