import { type LoggerService } from '@nestjs/common';
import type { LogLevel } from '../../config/config';

const RANK: Record<string, number> = {
  debug: 10,
  verbose: 10,
  log: 20,
  info: 20,
  warn: 30,
  error: 40,
  fatal: 50,
  silent: 100,
};
/**
 * Anything that looks like an API key, a bearer credential, a webhook signing secret or an OAuth
 * token, code or client secret (fgat_, fgrt_, fgac_, fgcs_) is masked before it is written.
 */
const SECRET = /(svc_dk_[0-9A-Za-z]{4})[0-9A-Za-z]+|(Bearer\s+)\S+|(whsec_|fg(?:at|rt|ac|cs)_)[A-Za-z0-9+/=_-]+/gi; // the auth scheme in any case (RFC 9110 §11.1)

export function maskSecrets(text: string): string {
  return text.replace(SECRET, (_m, key, bearer, prefix) =>
    key ? `${key}…` : bearer ? `${bearer}[redacted]` : `${prefix}[redacted]`,
  );
}

/** Structured JSON lines on stdout. */
export class JsonLogger implements LoggerService {
  private readonly min: number;
  constructor(level: LogLevel) {
    this.min = RANK[level];
  }

  private write(level: string, message: unknown, context?: unknown): void {
    if (RANK[level] < this.min) return;
    const line = {
      time: new Date().toISOString(),
      level,
      context: typeof context === 'string' ? context : undefined,
      msg: maskSecrets(typeof message === 'string' ? message : JSON.stringify(message)),
    };
    process.stdout.write(JSON.stringify(line) + '\n');
  }

  log(message: unknown, context?: unknown) {
    this.write('info', message, context);
  }
  error(message: unknown, _trace?: unknown, context?: unknown) {
    this.write('error', message, context);
  }
  warn(message: unknown, context?: unknown) {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: unknown) {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: unknown) {
    this.write('debug', message, context);
  }
  fatal(message: unknown, context?: unknown) {
    this.write('fatal', message, context);
  }
}
