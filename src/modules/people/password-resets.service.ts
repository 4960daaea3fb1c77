import { isoFromMs } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { forbidden, invalid } from '../../http/errors.ts';
import type { Principal } from '../auth/principal.ts';
import { hashToken } from '../auth/tokens.ts';
import { revokeSessionsOf } from '../sessions/sessions.repository.ts';
import { type MailMessage, webhookIo } from '../webhooks/io.ts';
import { can, WORKSPACE } from '../../policy/index.ts';
import { badLink, type Client, emailedLinkBase, newLinkToken, normalEmail, sendMail } from './links.ts';
import { personInOrg, requireManager } from './people.service.ts';
import * as repo from './people.repository.ts';
import { signedInSession } from './sign-in.service.ts';

/**
 * Password resets (docs/people.md, "Password resets"): a single-use link, issued by an owner or admin
 * and shown to them, or asked for by the person and e-mailed to them. Using it sets the new
 * password, ends every session of the person and signs them in.
 */

async function insertReset(tx: Tx, userId: number, createdBy: number | null, base: string) {
  const token = newLinkToken();
  const expiresAt = isoFromMs(tx.clock.nowMs() + tx.config.links.passwordResetMs);
  await repo.insertPasswordReset(tx.db, {
    user_id: userId,
    token_hash: hashToken(token),
    created_by: createdBy,
    created_at: tx.clock.nowIso(),
    expires_at: expiresAt,
  });
  return { url: `${base}/reset-password#token=${token}`, expires_at: expiresAt };
}

/**
 * An owner or admin issues a reset link for a person (only an owner for an owner); shown to the
 * issuer only, under `shownBase` (PUBLIC_BASE_URL, else the origin their request reached).
 */
export async function issuePasswordReset(tx: Tx, principal: Principal, id: number, shownBase: string) {
  requireManager(principal);
  const person = await personInOrg(tx.db, principal, id);
  if (person.kind !== 'human') throw invalid({ id: 'service accounts sign in with tokens, not passwords' });
  if (person.role === 'owner' && !can(principal, 'people.manage-owners', WORKSPACE))
    throw forbidden("Only an owner can reset an owner's password.");
  if (person.active !== 1) throw invalid({ id: 'the person is deactivated' });
  return insertReset(tx, id, principal.userId, shownBase);
}

/**
 * Self-service: records a reset link for each active person with that address, when SMTP and
 * PUBLIC_BASE_URL are configured (the link's only base: emailedLinkBase), and returns the
 * messages to send once committed (`sendResetMails`). The answer never says whether anyone was
 * found, so the caller must not wait for the mail.
 */
export async function requestPasswordReset(tx: Tx, email: string): Promise<MailMessage[]> {
  const base = emailedLinkBase(tx);
  if (!webhookIo(tx).mailer || !base) return [];
  const people = await repo.humansWithEmail(tx.db, normalEmail(email), { activeOnly: true });
  const mails: MailMessage[] = [];
  for (const person of people) {
    const link = await insertReset(tx, person.id, null, base);
    mails.push({
      to: [person.email!],
      subject: 'Reset your tasktracker password',
      text: `Someone (hopefully you) asked to reset the password of ${person.name}.\n\nOpen this link to choose a new one (it works once, until ${link.expires_at}):\n${link.url}\n\nIf it was not you, ignore this message.\n`,
    });
  }
  return mails;
}

/** Sends the reset messages one after the other, outside any transaction. */
export async function sendResetMails(ctx: AppContext, mails: MailMessage[]): Promise<void> {
  for (const mail of mails) await sendMail(ctx, mail);
}

/**
 * Before any password work: 400 unless the reset link is live and its person active
 * (completePasswordReset decides again, atomically, in its unit of work).
 */
export async function assertResetLink(ctx: AppContext, token: string): Promise<void> {
  const reset = await repo.findLivePasswordReset(ctx.db, hashToken(token), ctx.clock.nowIso());
  if (!reset || reset.active !== 1) throw badLink('password reset');
}

/**
 * Sets the new password with a reset link, ends every session of the person and signs them in.
 * `passwordHash` comes from `hashNewPassword`, before the unit of work.
 */
export async function completePasswordReset(tx: Tx, input: { token: string }, passwordHash: string, client: Client) {
  const now = tx.clock.nowIso();
  const userId = await repo.usePasswordReset(tx.db, hashToken(input.token), now);
  if (userId === undefined) throw badLink('password reset');
  const user = await repo.findUser(tx.db, userId);
  if (!user?.active) throw badLink('password reset');
  await repo.setPasswordHash(tx.db, user.id, passwordHash);
  await revokeSessionsOf(tx.db, user.id, now);
  return signedInSession(tx, user.id, client);
}
