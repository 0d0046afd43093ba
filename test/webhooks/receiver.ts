import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Behaviour = (req: Received, index: number) => number;

/** A real local HTTP receiver; answers with the status `behaviour` returns (default 204). */
export async function startReceiver(behaviour: Behaviour = () => 204) {
  const received: Received[] = [];
  let answer = behaviour;
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(r);
      const status = answer(r, received.length - 1);
      res.statusCode = status;
      res.end(status === 204 ? undefined : `status ${status}`);
      for (const w of [...waiters])
        if (received.length >= w.n) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    setBehaviour(b: Behaviour) {
      answer = b;
    },
    /** Resolves once `n` requests arrived (rejects after `ms`). */
    waitFor(n: number, ms = 15_000): Promise<void> {
      if (received.length >= n) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const w = {
          n,
          resolve: () => {
            clearTimeout(t);
            resolve();
          },
        };
        const t = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(new Error(`receiver got ${received.length} of ${n} requests in ${ms} ms`));
        }, ms);
        waiters.push(w);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Verifies a delivery with the standardwebhooks package (throws when the signature is wrong). */
export function verify(
  secret: string,
  r: Received,
): { id: string; type: string; createdAt: string; fundId: string; data: Record<string, unknown> } {
  return new Webhook(secret).verify(r.body, {
    'webhook-id': String(r.headers['webhook-id']),
    'webhook-timestamp': String(r.headers['webhook-timestamp']),
    'webhook-signature': String(r.headers['webhook-signature']),
  }) as never;
}

/** Waits until `probe` returns a truthy value. */
export async function eventually<T>(probe: () => Promise<T>, ms = 15_000, every = 50): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, every));
  }
}
