import type { AppContext } from '../context.ts';
import type { Executor } from '../db/database.ts';
import { inTransaction, type Tx } from '../db/unit-of-work.ts';
import { recordAudit } from '../modules/audit/record-audit.ts';
import { type CurrentSession, csrfTokenOf, sessionExpiresAt, startSession } from './sessions.service.ts';
import { type Client, normalEmail } from './client.ts';
import { verifyPassword } from './passwords.ts';
import * as repo from './sign-in.repository.ts';

/** Sign-in and what the console learns about the signed-in person (docs/people.md; throttling: docs/operating/security.md). */

export async function sessionPayload(ctx: AppContext, db: Executor, session: CurrentSession) {
  const row = await repo.findPersonWithOrganization(db, session.user_id);
  return {
    user: { id: row.id, kind: 'human' as const, email: row.email ?? '', name: row.name, role: row.role },
    organization: { id: row.org_id, slug: row.org_slug, name: row.org_name },
    csrf_token: csrfTokenOf(session.token),
    session: { id: session.id, created_at: session.created_at, expires_at: sessionExpiresAt(ctx, session) },
  };
}

/** Starts a session for the person and answers with it and the console's payload. */
export async function signedInSession(tx: Tx, userId: number, client: Client) {
  const session = await startSession(tx, userId, client);
  return { session, payload: await sessionPayload(tx, tx.db, session) };
}

/** Signs the person in (a session) and records the sign-in in the audit log, `method` saying how. */
export async function signInWith(tx: Tx, userId: number, client: Client, method: 'password' | 'oidc') {
  const signedIn = await signedInSession(tx, userId, client);
  const { user, organization } = signedIn.payload;
  await recordAudit(tx, {
    organizationId: organization.id,
    actor: { userId: user.id, label: user.name, tokenId: null, sessionId: signedIn.session.id, source: 'app' },
    action: 'sign_in.succeeded',
    target: { type: 'person', id: user.id, label: `${user.name} <${user.email}>` },
    after: { method },
    address: client.ip,
    correlationId: client.requestId,
  });
  return signedIn;
}

/**
 * Records a refused sign-in in the audit log of each organization where the e-mail names a
 * person (an address nobody has belongs to no organization: the request log keeps it).
 */
export async function recordFailedSignIn(
  ctx: AppContext,
  email: string,
  client: Client,
  method: 'password' | 'oidc',
): Promise<void> {
  const candidates = await repo.humansWithEmail(ctx.db, normalEmail(email), { activeOnly: false });
  if (candidates.length === 0) return;
  await inTransaction(ctx, async (tx) => {
    for (const person of candidates) {
      await recordAudit(tx, {
        organizationId: person.organization_id,
        actor: { userId: null, label: normalEmail(email), tokenId: null, sessionId: null, source: 'app' },
        action: 'sign_in.failed',
        target: { type: 'person', id: person.id, label: `${person.name} <${person.email}>` },
        after: { method, active: person.active === 1 },
        address: client.ip,
        correlationId: client.requestId,
      });
    }
  });
}

/**
 * The account a right e-mail and password stand for, or null. Every path verifies exactly one
 * argon2 hash per candidate account (a dummy one when there is none), so an unknown address
 * costs the same time as a wrong password. E-mail addresses are unique per organization: the
 * first account (oldest) whose password matches signs in. Reads only: the session is started
 * by `signedInSession` in a unit of work of its own. With OIDC_PASSWORD_SIGNIN=off only owners
 * sign in with a password (the local fallback when the provider fails); anyone else is refused
 * as if the password were wrong, so the answer never tells whether it was right.
 */
export async function accountForCredentials(
  ctx: AppContext,
  input: { email: string; password: string },
): Promise<number | null> {
  const candidates = await repo.humansWithEmail(ctx.db, normalEmail(input.email), { activeOnly: false });
  if (candidates.length === 0) await verifyPassword(ctx, null, input.password);
  for (const candidate of candidates) {
    const allowed = candidate.active && (ctx.config.oidc?.passwordSignIn !== false || candidate.role === 'owner');
    if ((await verifyPassword(ctx, candidate.password_hash, input.password)) && allowed) return candidate.id;
  }
  return null;
}
