import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { type CurrentSession, csrfTokenOf, sessionExpiresAt, startSession } from '../sessions/sessions.service.ts';
import { type Client, normalEmail } from './links.ts';
import { verifyPassword } from './passwords.ts';
import * as repo from './people.repository.ts';

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

/**
 * The account a right e-mail and password stand for, or null. Every path verifies exactly one
 * argon2 hash per candidate account (a dummy one when there is none), so an unknown address
 * costs the same time as a wrong password. E-mail addresses are unique per organization: the
 * first account (oldest) whose password matches signs in. Reads only: the session is started
 * by `signedInSession` in a unit of work of its own.
 */
export async function accountForCredentials(
  ctx: AppContext,
  input: { email: string; password: string },
): Promise<number | null> {
  const candidates = await repo.humansWithEmail(ctx.db, normalEmail(input.email), { activeOnly: false });
  if (candidates.length === 0) await verifyPassword(ctx, null, input.password);
  for (const candidate of candidates) {
    if ((await verifyPassword(ctx, candidate.password_hash, input.password)) && candidate.active) return candidate.id;
  }
  return null;
}
