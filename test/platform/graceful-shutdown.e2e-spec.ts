import { connect } from 'node:net';
import { type AddressInfo } from 'node:net';
import { createDataSource } from '../../src/database/data-source';
import { ActivityLogWriter } from '../../src/usage/activity-log.writer';
import { bootApp } from '../utils/app';

/**
 * A stop (SIGTERM, or app.close()) drains the requests in flight before anything closes: the
 * request is answered, and its activity row is written by the log's last flush.
 */
describe('graceful shutdown (e2e)', () => {
  it('a request in flight when the stop begins is answered and its activity row is kept', async () => {
    const app = await bootApp();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.getHttpServer().address() as AddressInfo;
    const requestId = `drain-${process.pid}-${Date.now()}`;
    const body = '{}';
    const socket = connect({ port, host: '127.0.0.1' });
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    const ended = new Promise((resolve) => socket.once('close', resolve));
    // headers now, the body only once the stop has begun: the request is in flight throughout
    socket.write(
      `POST /api/v1/calc/operating-cost-calculator HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n`,
    );
    await new Promise((r) => setTimeout(r, 100));
    // The body goes once the activity log's last flush has begun, or after 2 s if it has not: a stop
    // that flushes before the requests in flight are answered loses this request's row whatever the
    // timing; a stop that drains first does not flush until the request is answered.
    const writer = app.get(ActivityLogWriter);
    const lastFlush = writer.beforeApplicationShutdown.bind(writer);
    let flushBegan!: () => void;
    const flushing = new Promise<void>((r) => (flushBegan = r));
    writer.beforeApplicationShutdown = () => (flushBegan(), lastFlush());
    const closing = app.close();
    await Promise.race([flushing, new Promise((r) => setTimeout(r, 2000))]);
    socket.write(body);
    await ended;
    await closing;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    const db = createDataSource(process.env.DATABASE_URL!, 1);
    await db.initialize();
    try {
      const rows = await db.query(`SELECT route, status FROM activity_log WHERE request_id = $1`, [requestId]);
      expect(rows).toEqual([{ route: '/api/v1/calc/operating-cost-calculator', status: 200 }]);
    } finally {
      await db.destroy();
    }
  }, 30_000);
});
