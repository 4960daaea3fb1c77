/**
 * Sending people's e-mail. Never inside a transaction: a slow or unreachable SMTP server must
 * not hold a database lock, so services return the messages and send them after the commit.
 */
import type { AppContext } from '../context.ts';
import type { Log } from '../logger.ts';
import { MailError, type MailMessage } from './mailer.ts';

/** Whether e-mail can go out at all (SMTP_URL is configured). */
export const canMail = (ctx: Pick<AppContext, 'mailer'>): boolean => ctx.mailer !== null;

/**
 * Sends one message and logs a failure (with `fields`, e.g. the notification's id) instead of
 * throwing: null when it went out, otherwise why not, for the caller to record. The line says
 * why in `reason` (the server's reply or the connection failure), with `code`,
 * `response_code` and `command` when the server answered.
 */
export async function sendOrLogFailure(
  ctx: Pick<AppContext, 'mailer'>,
  log: Log,
  message: MailMessage,
  failure: { message: string; fields?: Record<string, unknown> },
): Promise<string | null> {
  if (!ctx.mailer) return 'SMTP_URL is not configured';
  try {
    await ctx.mailer.send(message);
    return null;
  } catch (error) {
    const why = error instanceof MailError ? { reason: error.message, ...error.details } : { reason: String(error) };
    log.error({ ...why, ...failure.fields }, failure.message);
    return why.reason;
  }
}
