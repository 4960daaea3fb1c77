/**
 * The mail transport: SMTP_URL and SMTP_FROM (docs/operating/email.md). A context carries one
 * `Mailer` (`ctx.mailer`), null without SMTP_URL; tests put one there that records messages.
 */
import type { Transporter } from 'nodemailer';
import type { Config } from '../config.ts';

export interface MailMessage {
  to: string[];
  subject: string;
  text: string;
  /** An HTML alternative to `text`. */
  html?: string;
  /** Extra header fields, e.g. List-Unsubscribe. */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Why a message did not go out, fit for a log: the SMTP server's reply and the step it refused, never a credential. */
export class MailError extends Error {
  constructor(
    reason: string,
    readonly details: { code?: string; response_code?: number; command?: string },
  ) {
    super(reason);
  }
}

function smtpMailer(url: string, from: string): Mailer {
  // Loaded on first use: most processes never send mail, and the CLI should start fast.
  let transport: Promise<Transporter> | undefined;
  return {
    async send(message) {
      transport ??= import('nodemailer').then((nodemailer) => nodemailer.default.createTransport(url));
      try {
        await (
          await transport
        ).sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          ...(message.html === undefined ? {} : { html: message.html }),
          ...(message.headers === undefined ? {} : { headers: message.headers }),
        });
      } catch (error) {
        throw mailError(error, url);
      }
    },
  };
}

/**
 * nodemailer's error, reduced to what says why: its message (the server's reply, e.g. "550 5.1.1
 * No such user", or the connection failure), its code (EENVELOPE, EAUTH, ECONNECTION...), the
 * reply code and the SMTP command. The password of SMTP_URL is taken out wherever it would show.
 */
function mailError(error: unknown, url: string): MailError {
  const e = error as { message?: unknown; code?: unknown; responseCode?: unknown; command?: unknown };
  let reason = typeof e?.message === 'string' ? e.message : String(error);
  const password = passwordOf(url);
  for (const secret of password ? [password, decodeURIComponent(password)] : [])
    reason = reason.split(secret).join('[redacted]');
  return new MailError(reason.slice(0, 500), {
    ...(typeof e?.code === 'string' ? { code: e.code } : {}),
    ...(typeof e?.responseCode === 'number' ? { response_code: e.responseCode } : {}),
    ...(typeof e?.command === 'string' ? { command: e.command } : {}),
  });
}

function passwordOf(url: string): string {
  try {
    return new URL(url).password;
  } catch {
    return '';
  }
}

/** The configured transport, built once per context (src/context.ts); null when SMTP_URL is not set. */
export function configuredMailer(config: Config): Mailer | null {
  const { url, from } = config.smtp;
  return url ? smtpMailer(url, from) : null;
}
