import { randomBytes } from 'node:crypto';
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

/** Sends one message when SMTP is configured: true if it went out, false without a mailer. Never inside a transaction. */
export async function sendMail(ctx: AppContext, message: MailMessage): Promise<boolean> {
  const mailer = webhookIo(ctx).mailer;
  if (!mailer) return false;
  await mailer.send(message);
  return true;
}
