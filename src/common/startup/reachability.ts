import { connect } from 'node:net';

/** How a newcomer starts the two services fundgate needs. */
export const START_SERVICES_HINT =
  'Start them with "docker run -d -p 127.0.0.1:5432:5432 -e POSTGRES_HOST_AUTH_METHOD=trust postgres:15" and ' +
  '"docker run -d -p 127.0.0.1:6379:6379 redis:7", or on Debian/Ubuntu ' +
  '"sudo apt-get install -y postgresql redis-server" (then "sudo service postgresql start; sudo service redis-server start"; ' +
  'Debian\'s PostgreSQL wants a password over TCP: "sudo -u postgres psql -c \\"ALTER USER postgres PASSWORD \'postgres\'\\"" ' +
  'and DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/fundgate).';

/** Query parameters that carry credentials in a connection URL (pg and ioredis both read `?password=`). */
const SECRET_PARAMS = /pass|secret|token|key|auth/i;

/** A URL without its password (in the user part or as a query parameter such as `?password=`), for messages. */
export function redactUrl(raw: string): string {
  try {
    const u = new URL(raw);
    if (u.password) u.password = '***';
    for (const name of [...u.searchParams.keys()]) if (SECRET_PARAMS.test(name)) u.searchParams.set(name, '***');
    return u.toString();
  } catch {
    return '(unparseable URL)';
  }
}

const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
]);

export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: string; errors?: unknown[]; message?: string };
  if (e?.code && CONNECTION_ERRORS.has(e.code)) return true;
  if (Array.isArray(e?.errors)) return e.errors.some(isConnectionError); // AggregateError (IPv4 and IPv6 tried)
  return /timeout expired|Connection terminated due to connection timeout/i.test(e?.message ?? '');
}

/** The one line a newcomer sees when a service is not running. */
export function unreachableMessage(
  service: 'PostgreSQL' | 'Redis',
  variable: string,
  url: string,
  err: unknown,
): string {
  const e = err as { code?: string; message?: string };
  const reason = e?.code ?? e?.message ?? String(err);
  let address = '(unknown address)';
  try {
    const u = new URL(url);
    address = `${u.hostname}:${u.port || (service === 'PostgreSQL' ? '5432' : '6379')}`;
  } catch {
    /* keep the placeholder */
  }
  return `${service} is not reachable at ${address} (${variable}=${redactUrl(url)}; ${reason}). ${START_SERVICES_HINT}`;
}

export class ServiceUnreachableError extends Error {}

/** Resolves when a TCP connection to the URL's host and port opens within `ms`; throws the newcomer line otherwise. */
export function assertReachable(
  service: 'PostgreSQL' | 'Redis',
  variable: string,
  url: string,
  ms = 3000,
): Promise<void> {
  const u = new URL(url);
  if ((u.searchParams.get('host') ?? '').startsWith('/')) return Promise.resolve(); // a Unix socket: let the driver report
  const port = Number(u.port || (service === 'PostgreSQL' ? 5432 : 6379));
  const host = u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1';
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, timeout: ms });
    const fail = (err: unknown) => {
      socket.destroy();
      reject(new ServiceUnreachableError(unreachableMessage(service, variable, url, err)));
    };
    socket.once('connect', () => {
      socket.end();
      resolve();
    });
    socket.once('timeout', () => fail({ code: 'ETIMEDOUT' }));
    socket.once('error', fail);
  });
}
