import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { createTransport, type Transporter } from 'nodemailer';
import { APP_CONFIG, AppConfig } from '../config/config';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

/** Why a mail was not sent, safe to log: nodemailer's error code and the SMTP reply code, never the message. */
export function sendFailure(err: unknown): string {
  const e = err as { code?: unknown; responseCode?: unknown; command?: unknown };
  const parts = [
    typeof e?.code === 'string' ? e.code : 'error',
    typeof e?.responseCode === 'number' ? `SMTP ${e.responseCode}` : null,
    typeof e?.command === 'string' ? `during ${e.command.split(' ')[0]}` : null,
  ];
  return parts.filter(Boolean).join(', ');
}

/**
 * Outgoing mail over SMTP (nodemailer), configured by SMTP_URL and MAIL_FROM; `configured` is false
 * without SMTP_URL. Plain-text messages only. The certificate of the mail server is always verified;
 * STARTTLS is required when SMTP_REQUIRE_TLS says so (the default in production); nodemailer's own
 * logger stays off (it would write the message, link included).
 */
@Injectable()
export class Mailer implements OnModuleDestroy {
  private transport: Transporter | null = null;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  get configured(): boolean {
    return this.config.mail !== null;
  }

  async send(mail: OutgoingMail): Promise<void> {
    const settings = this.config.mail;
    if (!settings) throw new Error('mail is not configured (SMTP_URL)');
    this.transport ??= createTransport({
      host: settings.host,
      port: settings.port,
      secure: settings.implicitTls,
      requireTLS: settings.requireTls,
      auth: settings.user ? { user: settings.user, pass: settings.password ?? '' } : undefined,
      tls: { rejectUnauthorized: true },
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
      logger: false,
      debug: false,
    });
    await this.transport.sendMail({
      from: settings.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      headers: { 'Auto-Submitted': 'auto-generated' },
    });
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}
