import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import { inTransaction, type Tx } from '../../db/unit-of-work.ts';
import type { WorkspaceRole } from '../../db/schema.ts';
import { ApiError, foundOr404, invalid, notFound } from '../../http/errors.ts';
import type { Principal } from '../../identity/principal.ts';
import { revokeSessionsOf } from '../../identity/sessions.repository.ts';
import { authorize, roleRefusal, seesWholeDirectory, WORKSPACE } from '../../policy/index.ts';
import { checkPasswordRules, hashNewPassword, hashPassword, verifyPassword } from '../../identity/passwords.ts';
import { handleForNewAccount } from '../accounts/handles.service.ts';
import { recordAudit } from '../audit/record-audit.ts';
import * as repo from './people.repository.ts';

/**
 * People and what the organization console does with them (docs/people.md):
 * roles and deactivation, service accounts, one's own profile and password, the
 * organization's name. Sign-in, setup, invitations, password resets and tokens have files of
 * their own in this folder.
 */

export function requireManager(principal: Principal): void {
  authorize(principal, 'people.manage', WORKSPACE);
}

function personJson(row: repo.PersonRow) {
  return {
    id: row.id,
    kind: row.kind,
    email: row.email,
    name: row.name,
    handle: row.handle,
    role: row.role,
    active: row.active === 1,
    created_at: row.created_at,
  };
}

/** Every person and service account of an organization: the operator's list (CLI). */
export async function listAllPeople(ctx: AppContext, organizationId: number) {
  return (await repo.peopleOf(ctx.db, organizationId)).map(personJson);
}

/**
 * The people the caller may know of (docs/api/access.md, "People"): the whole organization,
 * or for a guest only those sharing a project with them, with no address but their own.
 */
export async function listPeople(ctx: AppContext, principal: Principal) {
  if (seesWholeDirectory(principal)) return listAllPeople(ctx, principal.organizationId);
  const rows = await repo.peopleSharingAProjectWith(ctx.db, principal.organizationId, principal.userId);
  return rows.map((row) => personJson(row.id === principal.userId ? row : { ...row, email: null }));
}

/** A person of the caller's organization (404 otherwise). */
export async function personInOrg(db: Executor, principal: Principal, id: number) {
  return foundOr404(repo.findPersonIn(db, principal.organizationId, id), 'Person');
}

/**
 * Role and active changes. Owners and admins may change people; only an owner may touch an
 * owner or make someone owner. The organization always keeps one active owner.
 */
export async function updatePerson(
  tx: Tx,
  principal: Principal,
  id: number,
  input: { role?: WorkspaceRole; active?: boolean },
) {
  requireManager(principal);
  await repo.lockOrganization(tx.db, tx.dialect, principal.organizationId);
  const person = await personInOrg(tx.db, principal, id);
  const role = input.role ?? person.role;
  const wasActive = person.active === 1;
  const active = input.active === undefined ? wasActive : input.active;
  const changed = role !== person.role || active !== wasActive;
  if (changed) authorize(principal, 'person.manage', { kind: 'person', roles: [person.role, role] });
  const refused = roleRefusal(person.kind, role);
  if (refused) throw invalid({ role: refused });
  if (
    person.role === 'owner' &&
    wasActive &&
    (role !== 'owner' || !active) &&
    !(await repo.hasAnotherActiveOwner(tx.db, principal.organizationId, id))
  ) {
    throw new ApiError(
      'LAST_OWNER',
      'The organization must keep at least one active owner: make someone else owner first.',
    );
  }
  if (changed) await repo.setRoleAndActive(tx.db, id, { role, active }, tx.clock.nowIso());
  // Deactivation ends the person's sessions at once (their tokens stop at the active check).
  if (!active) await revokeSessionsOf(tx.db, id, tx.clock.nowIso());
  const audit = { organizationId: principal.organizationId, actor: principal, target: personTarget(person) };
  if (role !== person.role)
    await recordAudit(tx, { ...audit, action: 'person.role_changed', before: { role: person.role }, after: { role } });
  if (active !== wasActive)
    await recordAudit(tx, { ...audit, action: active ? 'person.reactivated' : 'person.deactivated' });
  return personJson({ ...person, role, active: active ? 1 : 0 });
}

/** A person as an audit record names them. */
export function personTarget(person: { id: number; name: string; email: string | null }) {
  return {
    type: 'person' as const,
    id: person.id,
    label: person.email ? `${person.name} <${person.email}>` : person.name,
  };
}

export async function createServiceAccount(tx: Tx, principal: Principal, input: { name: string; role: WorkspaceRole }) {
  requireManager(principal);
  const refused = roleRefusal('service', input.role);
  if (refused) throw invalid({ role: refused });
  const account = { kind: 'service' as const, name: input.name, email: null };
  const row = await repo.insertUser(tx.db, {
    organization_id: principal.organizationId,
    ...account,
    role: input.role,
    created_at: tx.clock.nowIso(),
    handle: await handleForNewAccount(tx, principal.organizationId, account),
  });
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'service_account.created',
    target: personTarget(row),
    after: { name: row.name, role: row.role },
  });
  return personJson(row);
}

export async function getProfile(ctx: AppContext, principal: Principal) {
  return personJson(await personInOrg(ctx.db, principal, principal.userId));
}

export async function updateProfile(tx: Tx, principal: Principal, input: { name?: string }) {
  if (input.name !== undefined) await repo.renamePerson(tx.db, principal.userId, input.name);
  return getProfile(tx, principal);
}

/**
 * Checks a change of one's own password before its unit of work: the new one against the
 * rules, the current one against the stored hash. Answers the new password's hash.
 */
export async function checkPasswordChange(
  ctx: AppContext,
  principal: Principal,
  input: { current_password: string; new_password: string },
): Promise<string> {
  checkPasswordRules(input.new_password, 'new_password');
  const user = await repo.findUser(ctx.db, principal.userId);
  if (!(await verifyPassword(ctx, user?.password_hash ?? null, input.current_password)))
    throw invalid({ current_password: 'is not your current password' });
  return hashPassword(ctx, input.new_password);
}

/** Stores one's new password (from `checkPasswordChange`); every other session of the person ends. */
export async function changePassword(tx: Tx, principal: Principal, passwordHash: string): Promise<void> {
  await repo.setPasswordHash(tx.db, principal.userId, passwordHash, tx.clock.nowIso());
  await revokeSessionsOf(tx.db, principal.userId, tx.clock.nowIso(), principal.sessionId);
}

/**
 * Sets a person's password: the operator's whole procedure (CLI, demo, test fixtures). The
 * hash is made before the unit of work, which then stores it and ends the person's sessions.
 */
export async function setPassword(ctx: AppContext, userId: number, password: string) {
  checkPasswordRules(password);
  const user = await repo.findUser(ctx.db, userId);
  if (!user) throw notFound(`User ${userId}`);
  if (user.kind !== 'human') throw invalid({ user: 'service accounts sign in with tokens, not passwords' });
  const passwordHash = await hashNewPassword(ctx, password);
  await inTransaction(ctx, async (tx) => {
    await repo.setPasswordHash(tx.db, userId, passwordHash, tx.clock.nowIso());
    await revokeSessionsOf(tx.db, userId, tx.clock.nowIso());
  });
  return { id: userId, password_set: true };
}

export async function getOrganization(ctx: AppContext, principal: Principal) {
  return repo.findOrganization(ctx.db, principal.organizationId);
}

export async function updateOrganization(tx: Tx, principal: Principal, input: { name?: string }) {
  requireManager(principal);
  const before = await getOrganization(tx, principal);
  if (input.name === undefined || input.name === before.name) return before;
  await repo.renameOrganization(tx.db, principal.organizationId, input.name);
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'organization.updated',
    target: { type: 'organization', id: principal.organizationId, label: input.name },
    before: { name: before.name },
    after: { name: input.name },
  });
  return getOrganization(tx, principal);
}
