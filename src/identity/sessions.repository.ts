import type { Insertable } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { SessionsTable } from '../db/schema.ts';
import { accounts } from './auth.repository.ts';

/** Browser sessions: the row of a cookie's token, one's live sessions, ending and purging them. */

export function insertSession(db: Executor, row: Omit<Insertable<SessionsTable>, 'id'>) {
  return db
    .insertInto('sessions')
    .values(row)
    .returning(['id', 'user_id', 'created_at', 'last_seen_at', 'expires_at'])
    .executeTakeFirstOrThrow();
}

/** The session of a token hash with its person and organization. */
export function findSessionByTokenHash(db: Executor, tokenHash: string) {
  return accounts(db)
    .innerJoin('sessions as s', 's.user_id', 'u.id')
    .select(['s.id', 's.created_at', 's.last_seen_at', 's.expires_at', 's.revoked_at'])
    .where('s.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Whether each of these sessions may still be used: its revocation, expiry and last use, and its person's state. */
export function sessionStates(db: Executor, ids: number[]) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.id', 's.revoked_at', 's.expires_at', 's.last_seen_at', 'u.active as user_active'])
    .where('s.id', 'in', ids.length ? ids : [-1])
    .execute();
}

export async function touchSession(db: Executor, id: number, at: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', id).execute();
}

export function findSessionOf(db: Executor, userId: number, sessionId: number) {
  return db
    .selectFrom('sessions')
    .select(['id', 'revoked_at'])
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export async function revokeSessionRow(db: Executor, id: number, at: string): Promise<void> {
  await db.updateTable('sessions').set({ revoked_at: at }).where('id', '=', id).execute();
}

/** Ends every live session of a person, optionally but one. */
export async function revokeSessionsOf(db: Executor, userId: number, at: string, except?: number): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revoked_at: at })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .$if(except !== undefined, (qb) => qb.where('id', '<>', except!))
    .execute();
}

/** A person's unrevoked sessions not past their absolute expiry, newest first. */
export function liveSessionsOf(db: Executor, userId: number, now: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_seen_at', 'expires_at', 'user_agent', 'ip'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .execute();
}

/** Deletes sessions that expired or were revoked before `cutoff`, or last used before `idleCutoff`. */
export async function deleteEndedSessions(db: Executor, cutoff: string, idleCutoff: string): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff), eb('last_seen_at', '<', idleCutoff)]),
    )
    .execute();
}

/** Deletes setup tokens, password resets and unaccepted invitations that expired before `cutoff`. */
export async function deleteExpiredLinks(db: Executor, cutoff: string): Promise<void> {
  await db.deleteFrom('setup_tokens').where('expires_at', '<', cutoff).execute();
  await db.deleteFrom('password_resets').where('expires_at', '<', cutoff).execute();
  await db.deleteFrom('invitations').where('accepted_at', 'is', null).where('expires_at', '<', cutoff).execute();
}
