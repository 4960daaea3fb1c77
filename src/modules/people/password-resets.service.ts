import { isoFromMs } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import type { Log } from '../../logger.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { invalid } from '../../http/errors.ts';
import type { Principal } from '../../identity/principal.ts';
import { hashToken } from '../../identity/tokens.ts';
import { revokeSessionsOf } from '../../identity/sessions.repository.ts';
import { authorize, issuerAsNow, linkIssuerMayStillIssue } from '../../policy/index.ts';
import { emailedLinkBase } from '../../mail/links.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { canMail, sendOrLogFailure } from '../../mail/send.ts';
import { passwordResetMail } from '../../mail/templates.ts';
import { type Client, normalEmail } from '../../identity/client.ts';
import { humansWithEmail } from '../../identity/sign-in.repository.ts';
import { badLink, newLinkToken } from './links.ts';
import { personInOrg, personTarget, requireManager } from './people.service.ts';
import { recordAudit } from '../audit/record-audit.ts';
import * as repo from './people.repository.ts';
import { signedInSession } from '../../identity/sign-in.service.ts';

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
  authorize(principal, 'person.manage', { kind: 'person', roles: [person.role] });
  if (person.active !== 1) throw invalid({ id: 'the person is deactivated' });
  const link = await insertReset(tx, id, principal.userId, shownBase);
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'person.password_reset_issued',
    target: personTarget(person),
  });
  return link;
}

/**
 * Self-service: records a reset link for each active person with that address, when SMTP and
 * PUBLIC_BASE_URL are configured (the link's only base: emailedLinkBase), and returns the
 * messages to send once committed (`sendResetMails`). The answer never says whether anyone was
 * found, so the caller must not wait for the mail.
 */
export async function requestPasswordReset(tx: Tx, email: string): Promise<MailMessage[]> {
  const base = emailedLinkBase(tx);
  if (!canMail(tx) || !base) return [];
  const people = await humansWithEmail(tx.db, normalEmail(email), { activeOnly: true });
  const mails: MailMessage[] = [];
  for (const person of people) {
    mails.push(passwordResetMail(person.email!, person.name, await insertReset(tx, person.id, null, base)));
  }
  return mails;
}

/** Sends the reset messages one after the other, outside any transaction; a failure is logged. */
export async function sendResetMails(ctx: AppContext, log: Log, mails: MailMessage[]): Promise<void> {
  for (const mail of mails)
    await sendOrLogFailure(ctx, log, mail, { message: 'could not e-mail a password reset link' });
}

/**
 * The reset link a token stands for while it acts: unused, unexpired, its person active, and
 * its issuer (if an admin issued it) still able to issue it for the role the person has now.
 * A change of the person's role or password spent it already (people.repository.ts).
 */
async function actingReset(db: Executor, token: string, now: string) {
  const reset = await repo.findLivePasswordReset(db, hashToken(token), now);
  if (!reset || reset.active !== 1) return undefined;
  const issuer = issuerAsNow(reset.created_by, reset.issuer_role, reset.issuer_active);
  return linkIssuerMayStillIssue(issuer, reset.role) ? reset : undefined;
}

/**
 * Before any password work: 400 unless the reset link acts (completePasswordReset decides
 * again, atomically, in its unit of work).
 */
export async function assertResetLink(ctx: AppContext, token: string): Promise<void> {
  if (!(await actingReset(ctx.db, token, ctx.clock.nowIso()))) throw badLink('password reset');
}

/**
 * Sets the new password with a reset link, ends every session of the person and signs them in.
 * `passwordHash` comes from `hashNewPassword`, before the unit of work.
 */
export async function completePasswordReset(tx: Tx, input: { token: string }, passwordHash: string, client: Client) {
  const now = tx.clock.nowIso();
  const reset = await actingReset(tx.db, input.token, now);
  if (!reset || !(await repo.usePasswordReset(tx.db, reset.id, now))) throw badLink('password reset');
  await repo.setPasswordHash(tx.db, reset.user_id, passwordHash, now);
  await revokeSessionsOf(tx.db, reset.user_id, now);
  return signedInSession(tx, reset.user_id, client);
}
