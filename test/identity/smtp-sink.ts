import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** One message as the sink received it: envelope, the credentials the client used, headers and decoded text. */
export interface ReceivedMail {
  mailFrom: string;
  rcptTo: string[];
  auth: { user: string; pass: string } | null;
  headers: Record<string, string>;
  text: string;
  raw: string;
}

export interface SmtpSink {
  port: number;
  mails: ReceivedMail[];
  /** While true, every message is refused at DATA (550), as a mail server that is failing. */
  refuse: boolean;
  close(): Promise<void>;
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable')
    return Buffer.from(
      body
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
  return body;
}

function parse(raw: string): { headers: Record<string, string>; text: string } {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split('\r\n')) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { headers, text: decodeBody(raw.slice(split + 4), headers['content-transfer-encoding']) };
}

/**
 * A real SMTP server (nodemailer's smtp-server) on a random loopback port that keeps what it
 * receives. Plain text only (no STARTTLS offered), AUTH accepted over it so the client's
 * credentials can be checked.
 */
export async function startSmtpSink(): Promise<SmtpSink> {
  const sink: SmtpSink = { port: 0, mails: [], refuse: false, close: async () => undefined };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: { user: auth.username, pass: auth.password } });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        if (sink.refuse) {
          const err = Object.assign(new Error('mailbox unavailable'), { responseCode: 550 });
          callback(err);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        sink.mails.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((r) => r.address),
          auth: (session.user as { user: string; pass: string } | undefined) ?? null,
          ...parse(raw),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sink.port = (server.server.address() as AddressInfo).port;
  sink.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return sink;
}
