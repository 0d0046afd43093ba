import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BODY_READ_MS, sendWebhook, snippetOf } from './sender';

describe('snippetOf', () => {
  it('keeps text and turns NUL and bytes that are not UTF-8 into U+FFFD (PostgreSQL text holds no NUL)', () => {
    const s = snippetOf([Buffer.from('ok '), Buffer.from([0x00, 0x1f, 0x8b, 0x00]), Buffer.from(' end')]);
    expect(s).not.toContain('\u0000');
    expect(s.startsWith('ok ')).toBe(true);
    expect(s.endsWith(' end')).toBe(true);
    expect(s).toBe('ok \uFFFD\u001f\uFFFD\uFFFD end');
  });

  it('keeps at most 512 bytes', () => {
    expect(Buffer.byteLength(snippetOf([Buffer.alloc(2000, 'a')]))).toBe(512);
  });
});

describe('sendWebhook: the status settles the attempt, the body only feeds the snippet', () => {
  let server: http.Server;
  let url: string;
  let connections = 0;
  let written = 0;
  let handler: (req: http.IncomingMessage, res: http.ServerResponse) => void = (_q, res) => res.writeHead(204).end();

  beforeAll(async () => {
    server = http.createServer((req, res) => req.resume().on('end', () => handler(req, res)));
    server.on('connection', () => connections++);
    server.keepAliveTimeout = 60_000;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });
  beforeEach(() => {
    connections = 0;
    written = 0;
  });

  const send = (timeoutMs = 4000) => sendWebhook(url, '{}', {}, { timeoutMs, allowPrivate: true });

  it('a 200 whose body trickles and never ends counts as 200 after BODY_READ_MS, not as a timeout', async () => {
    handler = (_q, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('accepted, ');
      const t = setInterval(() => res.write('.'), 100);
      res.on('close', () => clearInterval(t));
    };
    const started = Date.now();
    const r = await send();
    expect(r).toMatchObject({ statusCode: 200, error: null });
    expect(r.responseSnippet).toMatch(/^accepted, \.*$/);
    expect(Date.now() - started).toBeLessThan(BODY_READ_MS + 1000);
    expect(r.latencyMs).toBeLessThan(BODY_READ_MS);
  });

  it('a 200 with a 200 MB body counts as 200; only the first bytes are read, then the socket is closed', async () => {
    handler = (_q, res) => {
      res.writeHead(200, { 'content-length': String(200 * 2 ** 20) });
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (written < 200 * 2 ** 20 && !res.destroyed) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
      };
      pump();
    };
    const r = await send();
    expect(r).toMatchObject({ statusCode: 200, error: null });
    expect(r.responseSnippet).toBe('x'.repeat(512));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written).toBeLessThan(32 * 2 ** 20); // socket buffers at most, far from 200 MB
  });

  it('a cut-off socket is never reused: the next POST opens a new connection and gets its answer', async () => {
    handler = (_q, res) => {
      res.writeHead(200);
      res.write('x'.repeat(4096));
    };
    expect((await send()).statusCode).toBe(200);
    handler = (_q, res) => res.writeHead(204).end();
    expect(await send()).toMatchObject({ statusCode: 204, error: null });
    expect(await send()).toMatchObject({ statusCode: 204, error: null });
    expect(connections).toBe(2); // one for the cut-off answer, one kept alive for both 204s
  });

  it('no status within the timeout is a timed-out attempt', async () => {
    handler = () => undefined;
    const r = await send(300);
    expect(r).toMatchObject({ statusCode: null, error: 'timed out after 300 ms' });
  });
});
