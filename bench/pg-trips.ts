import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that counts round trips: a simple-protocol Query ('Q') or an
 * extended-protocol Sync ('S') is one request the server answers (node-postgres sends
 * Parse/Bind/Execute/Sync for a parameterized query). Startup and SSL negotiation are not counted.
 */
export interface TripCounter {
  port: number;
  trips: () => number;
  close: () => Promise<void>;
}

export async function startTripCounter(target: { host: string; port: number }): Promise<TripCounter> {
  let trips = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let buffered = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        if (!started) {
          if (buffered.length < 8) break;
          const len = buffered.readInt32BE(0);
          const code = buffered.readInt32BE(4);
          if (buffered.length < len) break;
          buffered = buffered.subarray(len);
          if (code !== 80877103) started = true; // 80877103: SSLRequest (answered with one byte, then the startup follows)
          continue;
        }
        if (buffered.length < 5) break;
        const len = buffered.readInt32BE(1);
        if (buffered.length < len + 1) break;
        const type = String.fromCharCode(buffered[0]);
        if (type === 'Q' || type === 'S') trips++;
        buffered = buffered.subarray(len + 1);
      }
    });
    upstream.on('data', (chunk: Buffer) => client.write(chunk));
    const end = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    trips: () => trips,
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}
