/**
 * The outside world of the webhook machinery (DNS, TLS trust, e-mail), in one place so tests
 * can inject each seam: a resolver that answers "public" at save time and "private" at delivery
 * time, a test CA for local HTTPS receivers, a mail transport that records messages.
 */
import type { Transporter } from 'nodemailer';
import type { AppContext } from '../../context.ts';
import type { Config } from '../../config.ts';
import { type Resolver, systemResolver } from './url-guard.ts';

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface WebhookIo {
  resolve: Resolver;
  /**
   * Certificates trusted for receivers instead of the system roots (node's `ca` option).
   * Only tests set it, to trust their own CA; TLS verification itself is never turned off.
   */
  ca?: string | Buffer | Array<string | Buffer>;
  /** Null when SMTP_URL is not configured: notifications are then recorded and logged only. */
  mailer: Mailer | null;
}

function smtpMailer(url: string, from: string): Mailer {
  // Loaded on first use: most processes never send mail, and the CLI should start fast.
  let transport: Promise<Transporter> | undefined;
  return {
    async send(message) {
      transport ??= import('nodemailer').then((nodemailer) => nodemailer.default.createTransport(url));
      await (await transport).sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
  };
}

/** The configured seams, built once per context (src/context.ts). */
export function defaultWebhookIo(config: Config): WebhookIo {
  const { url, from } = config.smtp;
  return { resolve: systemResolver, mailer: url ? smtpMailer(url, from) : null };
}

/** The context's seams: its overrides (`ctx.webhookIo`) over the configured defaults. */
export function webhookIo(ctx: AppContext): WebhookIo {
  return { ...ctx.io, ...ctx.webhookIo };
}
