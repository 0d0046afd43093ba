import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that counts round trips: a simple-protocol Query ('Q') or an
 * extended-protocol Sync ('S') is one request the server answers with ReadyForQuery ('Z')
 * (node-postgres sends Parse/Bind/Execute/Sync for a parameterized query). Startup and SSL
 * negotiation are not counted. A *wave* starts when a round trip is sent while none is
 * outstanding on any connection: the waves inside one request are its sequential round trips
 * (round trips sent in parallel share a wave).
 */
export interface TripCounter {
  port: number;
  trips: () => number;
  /** performance.now() of every wave start. */
  waves: number[];
  close: () => Promise<void>;
}

/** Walks the complete protocol messages of `buf`; answers the unread rest. */
function messages(buf: Buffer, onType: (type: string) => void): Buffer {
  let rest = buf;
  while (rest.length >= 5) {
    const len = rest.readInt32BE(1);
    if (rest.length < len + 1) break;
    onType(String.fromCharCode(rest[0]));
    rest = rest.subarray(len + 1);
  }
  return rest;
}

export async function startTripCounter(target: { host: string; port: number }): Promise<TripCounter> {
  let trips = 0;
  let outstanding = 0;
  const waves: number[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    sockets.add(client).add(upstream);
    let buffered: Buffer = Buffer.alloc(0);
    let fromServer: Buffer = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      buffered = Buffer.concat([buffered, chunk]);
      while (!started && buffered.length >= 8 && buffered.length >= buffered.readInt32BE(0)) {
        const code = buffered.readInt32BE(4);
        buffered = buffered.subarray(buffered.readInt32BE(0));
        if (code !== 80877103) started = true; // 80877103: SSLRequest (answered with one byte, then the startup follows)
      }
      if (!started) return;
      buffered = messages(buffered, (type) => {
        if (type !== 'Q' && type !== 'S') return;
        trips++;
        if (outstanding++ === 0) waves.push(performance.now());
      });
    });
    let authenticated = false;
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      fromServer = Buffer.concat([fromServer, chunk]);
      fromServer = messages(fromServer, (type) => {
        if (type !== 'Z') return;
        if (!authenticated)
          authenticated = true; // the first ReadyForQuery ends the startup
        else outstanding = Math.max(0, outstanding - 1);
      });
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    trips: () => trips,
    waves,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
