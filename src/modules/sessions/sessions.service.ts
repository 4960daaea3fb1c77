import { createHmac, randomBytes } from 'node:crypto';
import { isoFromMs } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { ApiError, notFound } from '../../http/errors.ts';
import type { Principal } from '../auth/principal.ts';
import { ALL_SCOPES } from '../auth/scopes.ts';
import { hashToken } from '../auth/tokens.ts';

/**
 * Browser sessions of people (README "People and sign-in"). The cookie holds an opaque
 * 256-bit token; the database keeps only its SHA-256. A session ends at the earlier of its idle
 * expiry (SESSION_IDLE_HOURS after it was last used) and its absolute expiry (SESSION_MAX_DAYS
 * after sign-in), when revoked (sign-out, revoke from another session, password change or reset),
 * or at once when its person is deactivated.
 */
export interface SessionRow {
  id: number;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

/** The request's session, kept on the request for the console routes. */
export interface CurrentSession extends SessionRow {
  /** The raw cookie value: the CSRF token is derived from it. */
  token: string;
}

/** Last-seen moves at most this often, so a busy page does not write on every request. */
const TOUCH_EVERY_MS = 60_000;

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The session's CSRF token: an HMAC keyed by the session's own secret, so it is stable for the
 * session, needs no storage, and cannot be computed without the cookie.
 */
export function csrfTokenOf(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('tasktracker csrf').digest('base64url');
}

/** When the session ends if not used again: the earlier of idle and absolute expiry. */
export function sessionExpiresAt(ctx: AppContext, session: Pick<SessionRow, 'last_seen_at' | 'expires_at'>): string {
  const idle = isoFromMs(Date.parse(session.last_seen_at) + ctx.config.sessions.idleMs);
  return idle < session.expires_at ? idle : session.expires_at;
}

export async function startSession(ctx: AppContext, db: Executor, userId: number, client: { userAgent: string; ip: string }): Promise<CurrentSession> {
  const token = newSessionToken();
  const now = ctx.clock.nowIso();
  const row = await db
    .insertInto('sessions')
    .values({
      user_id: userId,
      token_hash: hashToken(token),
      created_at: now,
      last_seen_at: now,
      expires_at: isoFromMs(ctx.clock.nowMs() + ctx.config.sessions.absoluteMs),
      revoked_at: null,
      user_agent: client.userAgent.slice(0, 300),
      ip: client.ip.slice(0, 100),
    })
    .returning(['id', 'user_id', 'created_at', 'last_seen_at', 'expires_at'])
    .executeTakeFirstOrThrow();
  return { ...row, token };
}

const signedOut = (message: string) => new ApiError('UNAUTHENTICATED', message);

/** The person a session cookie stands for, with every scope (scopes narrow tokens, not people); 401 when it cannot be used. */
export async function principalOfSession(ctx: AppContext, token: string): Promise<{ principal: Principal; session: CurrentSession }> {
  const row = await ctx.db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .select([
      's.id',
      's.user_id',
      's.created_at',
      's.last_seen_at',
      's.expires_at',
      's.revoked_at',
      'u.name as user_name',
      'u.email as user_email',
      'u.kind as user_kind',
      'u.role',
      'u.active',
      'o.id as organization_id',
      'o.slug as organization_slug',
      'o.name as organization_name',
    ])
    .where('s.token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!row) throw signedOut('The session is not valid. Sign in again.');
  if (row.revoked_at) throw signedOut('The session has ended. Sign in again.');
  if (!row.active) throw signedOut('The account is deactivated.');
  const nowMs = ctx.clock.nowMs();
  if (sessionExpiresAt(ctx, row) <= isoFromMs(nowMs)) throw signedOut('The session has expired. Sign in again.');

  let lastSeen = row.last_seen_at;
  if (nowMs - Date.parse(lastSeen) >= TOUCH_EVERY_MS) {
    lastSeen = ctx.clock.nowIso();
    await ctx.db.updateTable('sessions').set({ last_seen_at: lastSeen }).where('id', '=', row.id).execute();
  }
  const session: CurrentSession = { id: row.id, user_id: row.user_id, created_at: row.created_at, last_seen_at: lastSeen, expires_at: row.expires_at, token };
  const principal: Principal = {
    tokenId: 0,
    sessionId: row.id,
    source: 'app',
    userId: row.user_id,
    userName: row.user_name,
    userEmail: row.user_email,
    userKind: row.user_kind,
    organizationId: row.organization_id,
    organizationSlug: row.organization_slug,
    organizationName: row.organization_name,
    role: row.role,
    scopes: [...ALL_SCOPES],
    projectRestriction: null,
    expiresAt: sessionExpiresAt(ctx, session),
  };
  return { principal, session };
}

export async function revokeSession(ctx: AppContext, userId: number, sessionId: number): Promise<void> {
  const row = await ctx.db
    .selectFrom('sessions')
    .select(['id', 'revoked_at'])
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (!row) throw notFound('Session');
  if (!row.revoked_at) await ctx.db.updateTable('sessions').set({ revoked_at: ctx.clock.nowIso() }).where('id', '=', sessionId).execute();
}

/** Ends every live session of a person (deactivation, password reset), optionally but one. */
export async function endSessionsOf(db: Executor, userId: number, now: string, except?: number): Promise<void> {
  let query = db.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (except !== undefined) query = query.where('id', '<>', except);
  await query.execute();
}

/** One's own live sessions, newest first. */
export async function listSessions(ctx: AppContext, userId: number, currentId: number) {
  const rows = await ctx.db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'user_agent', 'ip'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', ctx.clock.nowIso())
    .orderBy('id', 'desc')
    .execute();
  const now = isoFromMs(ctx.clock.nowMs());
  return rows
    .map((row) => ({ ...row, expires_at: sessionExpiresAt(ctx, row), current: row.id === currentId }))
    .filter((row) => row.expires_at > now)
    .map(({ id, current, created_at, last_seen_at, expires_at, user_agent, ip }) => ({ id, current, created_at, last_seen_at, expires_at, user_agent, ip }));
}
