import type { Insertable } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import type { InvitationsTable, PasswordResetsTable, UsersTable, WorkspaceRole } from '../../db/schema.ts';

/**
 * People, their organization, and the single-use links they receive (setup, invitation,
 * password reset; the database keeps only a link token's SHA-256), and the console's view of
 * API tokens. E-mail addresses compare case-insensitively: callers pass them lower-cased.
 */

export const PERSON_COLUMNS = ['id', 'kind', 'email', 'name', 'handle', 'role', 'active', 'created_at'] as const;

// ---------------------------------------------------------------------------------------------
// Organizations

export async function anyOrganizationExists(db: Executor): Promise<boolean> {
  return (await db.selectFrom('organizations').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export function findOrganization(db: Executor, id: number) {
  return db
    .selectFrom('organizations')
    .select(['id', 'slug', 'name', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

export async function insertOrganization(
  db: Executor,
  values: { name: string; slug: string; created_at: string },
): Promise<number> {
  const row = await db.insertInto('organizations').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function renameOrganization(db: Executor, id: number, name: string): Promise<void> {
  await db.updateTable('organizations').set({ name }).where('id', '=', id).execute();
}

/** Serializes changes to who owns the organization (PostgreSQL; SQLite transactions are already exclusive). */
export async function lockOrganization(db: Executor, dialect: Dialect, id: number): Promise<void> {
  if (dialect === 'postgres')
    await db.selectFrom('organizations').select('id').where('id', '=', id).forUpdate().execute();
}

// ---------------------------------------------------------------------------------------------
// People

export function peopleOf(db: Executor, organizationId: number) {
  return db
    .selectFrom('users')
    .select(PERSON_COLUMNS)
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute();
}

/** The people of the organization who share a project with `userId`, and that person, by id. */
export function peopleSharingAProjectWith(db: Executor, organizationId: number, userId: number) {
  return db
    .selectFrom('users')
    .select(PERSON_COLUMNS)
    .where('organization_id', '=', organizationId)
    .where((eb) =>
      eb.or([
        eb('id', '=', userId),
        eb(
          'id',
          'in',
          eb
            .selectFrom('project_memberships as theirs')
            .innerJoin('project_memberships as mine', 'mine.project_id', 'theirs.project_id')
            .select('theirs.user_id')
            .where('mine.user_id', '=', userId),
        ),
      ]),
    )
    .orderBy('id')
    .execute();
}

export function findPersonIn(db: Executor, organizationId: number, id: number) {
  return db
    .selectFrom('users')
    .select(PERSON_COLUMNS)
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

export type PersonRow = NonNullable<Awaited<ReturnType<typeof findPersonIn>>>;

export function findUser(db: Executor, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'kind', 'active', 'password_hash'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Whether someone in the organization has this (lower-cased) address. */
export async function emailTakenIn(db: Executor, organizationId: number, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the organization has an active owner other than `exceptId`. */
export async function hasAnotherActiveOwner(db: Executor, organizationId: number, exceptId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'owner')
    .where('active', '=', 1)
    .where('id', '<>', exceptId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

export function insertUser(db: Executor, values: Omit<Insertable<UsersTable>, 'id'>) {
  return db.insertInto('users').values(values).returning(PERSON_COLUMNS).executeTakeFirstOrThrow();
}

/**
 * Changes a person's role or state. Their open reset links end with it: a link issued for the
 * person they were (a member's, reset by an admin) must not act for the person they now are
 * (an owner).
 */
export async function setRoleAndActive(
  db: Executor,
  id: number,
  change: { role: WorkspaceRole; active: boolean },
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ role: change.role, active: change.active ? 1 : 0 })
    .where('id', '=', id)
    .execute();
  await endOpenResetLinksOf(db, id, now);
}

export async function renamePerson(db: Executor, id: number, name: string): Promise<void> {
  await db.updateTable('users').set({ name }).where('id', '=', id).execute();
}

/** Sets a person's password; their open reset links end with the password they were meant to replace. */
export async function setPasswordHash(db: Executor, id: number, passwordHash: string, now: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', id).execute();
  await endOpenResetLinksOf(db, id, now);
}

// ---------------------------------------------------------------------------------------------
// Setup links

export async function insertSetupToken(
  db: Executor,
  values: { token_hash: string; created_at: string; expires_at: string },
): Promise<void> {
  await db
    .insertInto('setup_tokens')
    .values({ ...values, used_at: null })
    .execute();
}

/** The live (unused, unexpired) setup token with this hash, if any. */
export function findLiveSetupToken(db: Executor, tokenHash: string, now: string) {
  return db
    .selectFrom('setup_tokens')
    .select('id')
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Spends the live setup token with this hash; false when there is none (used, expired or unknown). */
export async function useSetupToken(db: Executor, tokenHash: string, now: string): Promise<boolean> {
  const used = await db
    .updateTable('setup_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/** Spends every setup token still unused. */
export async function burnSetupTokens(db: Executor, now: string): Promise<void> {
  await db.updateTable('setup_tokens').set({ used_at: now }).where('used_at', 'is', null).execute();
}

// ---------------------------------------------------------------------------------------------
// Invitations

export function insertInvitation(
  db: Executor,
  values: Omit<Insertable<InvitationsTable>, 'id' | 'accepted_at' | 'accepted_user_id' | 'revoked_at'>,
) {
  return db
    .insertInto('invitations')
    .values({ ...values, accepted_at: null, accepted_user_id: null, revoked_at: null })
    .returning(['id', 'email', 'role', 'created_at', 'expires_at'])
    .executeTakeFirstOrThrow();
}

/** The organization's invitations neither accepted, revoked nor expired, with their inviter, by id. */
export function openInvitationsOf(db: Executor, organizationId: number, now: string) {
  return db
    .selectFrom('invitations as i')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select([
      'i.id',
      'i.email',
      'i.role',
      'i.created_at',
      'i.expires_at',
      'u.id as inviter_id',
      'u.name as inviter_name',
    ])
    .where('i.organization_id', '=', organizationId)
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .where('i.expires_at', '>', now)
    .orderBy('i.id')
    .execute();
}

/** Revokes an unaccepted invitation of the organization: its address, or undefined when there is none. */
export async function revokeOpenInvitation(
  db: Executor,
  organizationId: number,
  id: number,
  now: string,
): Promise<{ email: string } | undefined> {
  return db
    .updateTable('invitations')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('organization_id', '=', organizationId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returning('email')
    .executeTakeFirst();
}

/**
 * The open invitation a link's token hash stands for, with its organization's name and its
 * issuer as they are now (null columns for an issuer no longer in the organization).
 */
export function findOpenInvitation(db: Executor, tokenHash: string, now: string) {
  return db
    .selectFrom('invitations as i')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .leftJoin('users as issuer', (join) =>
      join.onRef('issuer.id', '=', 'i.invited_by').onRef('issuer.organization_id', '=', 'i.organization_id'),
    )
    .select([
      'i.id',
      'i.email',
      'i.role',
      'i.expires_at',
      'i.organization_id',
      'o.name as organization_name',
      'o.slug as organization_slug',
      'i.invited_by',
      'issuer.role as issuer_role',
      'issuer.active as issuer_active',
    ])
    .where('i.token_hash', '=', tokenHash)
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .where('i.expires_at', '>', now)
    .executeTakeFirst();
}

/** Marks the invitation accepted unless it already is; false when someone else accepted it first. */
export async function claimInvitation(db: Executor, id: number, now: string): Promise<boolean> {
  const claimed = await db
    .updateTable('invitations')
    .set({ accepted_at: now })
    .where('id', '=', id)
    .where('accepted_at', 'is', null)
    .executeTakeFirst();
  return Number(claimed.numUpdatedRows) === 1;
}

export async function setInvitationAccount(db: Executor, id: number, userId: number): Promise<void> {
  await db.updateTable('invitations').set({ accepted_user_id: userId }).where('id', '=', id).execute();
}

// ---------------------------------------------------------------------------------------------
// Password resets

export async function insertPasswordReset(
  db: Executor,
  values: Omit<Insertable<PasswordResetsTable>, 'id' | 'used_at'>,
): Promise<void> {
  await db
    .insertInto('password_resets')
    .values({ ...values, used_at: null })
    .execute();
}

/**
 * The live (unused, unexpired) reset link with this hash, its person's state, and its issuer as
 * they are now (null columns for an issuer no longer in the organization), if any.
 */
export function findLivePasswordReset(db: Executor, tokenHash: string, now: string) {
  return db
    .selectFrom('password_resets as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .leftJoin('users as issuer', (join) =>
      join.onRef('issuer.id', '=', 'r.created_by').onRef('issuer.organization_id', '=', 'u.organization_id'),
    )
    .select([
      'r.id',
      'r.user_id',
      'u.active',
      'u.role',
      'r.created_by',
      'issuer.role as issuer_role',
      'issuer.active as issuer_active',
    ])
    .where('r.token_hash', '=', tokenHash)
    .where('r.used_at', 'is', null)
    .where('r.expires_at', '>', now)
    .executeTakeFirst();
}

/** Spends the live reset link with this id; false when someone spent it first. */
export async function usePasswordReset(db: Executor, id: number, now: string): Promise<boolean> {
  const used = await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}

/** Ends every open reset link of a person (spent, as if used). */
export async function endOpenResetLinksOf(db: Executor, userId: number, now: string): Promise<void> {
  await db
    .updateTable('password_resets')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
