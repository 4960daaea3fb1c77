import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { invalid } from '../../http/errors.ts';
import { type MailMessage, webhookIo } from '../webhooks/io.ts';

/**
 * What the people services share: links people receive carry a 256-bit token in the URL
 * fragment (never sent to a server, so never in a log); the database keeps only its SHA-256.
 */
export interface Client {
  userAgent: string;
  ip: string;
}

export const newLinkToken = () => randomBytes(32).toString('base64url');

export const normalEmail = (email: string) => email.trim().toLowerCase();

export const badLink = (what: string) =>
  invalid({ token: `is not a valid ${what} link, or it was used or has expired` });

/**
 * The base of every link that leaves in an e-mail: PUBLIC_BASE_URL, and nothing else. A link
 * built from a request's Host or X-Forwarded-Host would let whoever sends the request choose
 * where the link points (and so receive the token of a stranger's reset link). Without
 * PUBLIC_BASE_URL no e-mail carrying a link is sent.
 */
export function emailedLinkBase(ctx: Pick<AppContext, 'config'>): string | null {
  return ctx.config.publicBaseUrl;
}

/** At start: say once that invitation and reset e-mails stay unsent until PUBLIC_BASE_URL is set. */
export function warnAboutEmailedLinks(ctx: Pick<AppContext, 'config'>, log: FastifyBaseLogger): void {
  if (ctx.config.smtp.url && !emailedLinkBase(ctx))
    log.warn(
      'SMTP_URL is set but PUBLIC_BASE_URL is not: invitation and password-reset e-mails are not sent, since their links need the address people reach the service at (docs/operating/security.md)',
    );
}

/** Sends one message when SMTP is configured: true if it went out, false without a mailer. Never inside a transaction. */
export async function sendMail(ctx: AppContext, message: MailMessage): Promise<boolean> {
  const mailer = webhookIo(ctx).mailer;
  if (!mailer) return false;
  await mailer.send(message);
  return true;
}
