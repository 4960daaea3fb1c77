import { createHmac, randomBytes } from 'node:crypto';
import { isoFromMs } from '../clock.ts';
import type { AppContext } from '../context.ts';
import type { Tx } from '../db/unit-of-work.ts';
import { ApiError, foundOr404 } from '../http/errors.ts';
import { accountOf, type Principal } from './principal.ts';
import { ALL_SCOPES } from './scopes.ts';
import { hashToken } from './tokens.ts';
import * as repo from './sessions.repository.ts';

/**
 * Browser sessions of people (docs/operating/security.md, "Sessions"). The cookie holds an opaque
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

export async function startSession(
  tx: Tx,
  userId: number,
  client: { userAgent: string; ip: string },
): Promise<CurrentSession> {
  const token = newSessionToken();
  const now = tx.clock.nowIso();
  const row = await repo.insertSession(tx.db, {
    user_id: userId,
    token_hash: hashToken(token),
    created_at: now,
    last_seen_at: now,
    expires_at: isoFromMs(tx.clock.nowMs() + tx.config.sessions.absoluteMs),
    revoked_at: null,
    user_agent: client.userAgent.slice(0, 300),
    ip: client.ip.slice(0, 100),
  });
  return { ...row, token };
}

const signedOut = (message: string) => new ApiError('UNAUTHENTICATED', message);

/**
 * The person a session cookie stands for, with every scope (scopes narrow tokens, not people); 401 when it cannot be used.
 * `touch: false` checks without counting as a use (an open live stream re-checking its session is not the person at work).
 */
export async function principalOfSession(
  ctx: AppContext,
  token: string,
  options: { touch?: boolean } = {},
): Promise<{ principal: Principal; session: CurrentSession }> {
  const row = await repo.findSessionByTokenHash(ctx.db, hashToken(token));
  if (!row) throw signedOut('The session is not valid. Sign in again.');
  if (row.revoked_at) throw signedOut('The session has ended. Sign in again.');
  if (!row.user_active) throw signedOut('The account is deactivated.');
  const nowMs = ctx.clock.nowMs();
  if (sessionExpiresAt(ctx, row) <= isoFromMs(nowMs)) throw signedOut('The session has expired. Sign in again.');

  let lastSeen = row.last_seen_at;
  if (options.touch !== false && nowMs - Date.parse(lastSeen) >= TOUCH_EVERY_MS) {
    lastSeen = ctx.clock.nowIso();
    await repo.touchSession(ctx.db, row.id, lastSeen);
  }
  const session: CurrentSession = {
    id: row.id,
    user_id: row.user_id,
    created_at: row.created_at,
    last_seen_at: lastSeen,
    expires_at: row.expires_at,
    token,
  };
  const principal: Principal = {
    tokenId: 0,
    sessionId: row.id,
    source: 'app',
    ...accountOf(row),
    scopes: [...ALL_SCOPES],
    projectRestriction: null,
    expiresAt: sessionExpiresAt(ctx, session),
  };
  return { principal, session };
}

export async function revokeSession(tx: Tx, userId: number, sessionId: number): Promise<void> {
  const row = await foundOr404(repo.findSessionOf(tx.db, userId, sessionId), 'Session');
  if (!row.revoked_at) await repo.revokeSessionRow(tx.db, sessionId, tx.clock.nowIso());
}

/** One's own live sessions, newest first. */
export async function listSessions(ctx: AppContext, userId: number, currentId: number) {
  const rows = await repo.liveSessionsOf(ctx.db, userId, ctx.clock.nowIso());
  const now = isoFromMs(ctx.clock.nowMs());
  return rows
    .map((row) => ({ ...row, expires_at: sessionExpiresAt(ctx, row), current: row.id === currentId }))
    .filter((row) => row.expires_at > now)
    .map(({ id, current, created_at, last_seen_at, expires_at, user_agent, ip }) => ({
      id,
      current,
      created_at,
      last_seen_at,
      expires_at,
      user_agent,
      ip,
    }));
}

/** Ended sessions and spent or expired links are kept this long (for the sessions list and support), then deleted. */
const KEEP_ENDED_MS = 30 * 24 * 3600 * 1000;

/** Deletes sessions and single-use links that ended over 30 days ago; run by the worker. */
export async function purgeEndedSessionsAndLinks(ctx: AppContext): Promise<void> {
  const cutoff = isoFromMs(ctx.clock.nowMs() - KEEP_ENDED_MS);
  const idleCutoff = isoFromMs(ctx.clock.nowMs() - KEEP_ENDED_MS - ctx.config.sessions.idleMs);
  await repo.deleteEndedSessions(ctx.db, cutoff, idleCutoff);
  await repo.deleteExpiredLinks(ctx.db, cutoff);
}
