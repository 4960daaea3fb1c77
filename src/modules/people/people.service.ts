import { randomBytes } from 'node:crypto';
import { isoFromMs } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import { isUniqueViolation, type Executor, type Trx } from '../../db/database.ts';
import type { WorkspaceRole } from '../../db/schema.ts';
import { ApiError, forbidden, invalid, notFound } from '../../http/errors.ts';
import { createToken, revokeToken } from '../accounts/accounts.service.ts';
import type { Principal } from '../auth/principal.ts';
import { hashToken } from '../auth/tokens.ts';
import { webhookIo } from '../webhooks/io.ts';
import { type CurrentSession, csrfTokenOf, endSessionsOf, sessionExpiresAt, startSession } from '../sessions/sessions.service.ts';
import { authorize, can, WORKSPACE } from '../../policy/index.ts';
import { checkPasswordRules, hashPassword, verifyPassword } from './passwords.ts';

/**
 * People and what the organization console does with them (README "People and sign-in"):
 * first-run setup, sign-in, invitations, password resets, roles and deactivation, service
 * accounts and their tokens, notifications, one's own profile. Links people receive carry a
 * 256-bit token in the URL fragment (never sent to a server, so never in a log); the database
 * keeps only its SHA-256.
 */
export interface Client {
  userAgent: string;
  ip: string;
}

const newLinkToken = () => randomBytes(32).toString('base64url');
const normalEmail = (email: string) => email.trim().toLowerCase();

function requireManager(principal: Principal): void {
  authorize(principal, 'people.manage', WORKSPACE);
}

/** Serializes changes to who owns the organization (PostgreSQL; SQLite transactions are already exclusive). */
async function lockOrganization(ctx: AppContext, trx: Trx, organizationId: number): Promise<void> {
  if (ctx.dialect === 'postgres') await trx.selectFrom('organizations').select('id').where('id', '=', organizationId).forUpdate().execute();
}

// ---------------------------------------------------------------------------------------------
// Session payload

export async function sessionPayload(ctx: AppContext, db: Executor, session: CurrentSession) {
  const row = await db
    .selectFrom('users as u')
    .innerJoin('organizations as o', 'o.id', 'u.organization_id')
    .select(['u.id', 'u.email', 'u.name', 'u.role', 'o.id as org_id', 'o.slug as org_slug', 'o.name as org_name'])
    .where('u.id', '=', session.user_id)
    .executeTakeFirstOrThrow();
  return {
    user: { id: row.id, kind: 'human' as const, email: row.email ?? '', name: row.name, role: row.role },
    organization: { id: row.org_id, slug: row.org_slug, name: row.org_name },
    csrf_token: csrfTokenOf(session.token),
    session: { id: session.id, created_at: session.created_at, expires_at: sessionExpiresAt(ctx, session) },
  };
}

// ---------------------------------------------------------------------------------------------
// First run

export async function setupNeeded(ctx: AppContext): Promise<boolean> {
  return !(await ctx.db.selectFrom('organizations').select('id').limit(1).executeTakeFirst());
}

/** When no organization exists: a new single-use setup link token (valid for a day), else null. */
export async function issueSetupToken(ctx: AppContext): Promise<{ token: string; expires_at: string } | null> {
  if (!(await setupNeeded(ctx))) return null;
  const token = newLinkToken();
  const expiresAt = isoFromMs(ctx.clock.nowMs() + ctx.config.links.setupMs);
  await ctx.db.insertInto('setup_tokens').values({ token_hash: hashToken(token), created_at: ctx.clock.nowIso(), expires_at: expiresAt, used_at: null }).execute();
  return { token, expires_at: expiresAt };
}

const badLink = (what: string) => invalid({ token: `is not a valid ${what} link, or it was used or has expired` });

/**
 * Creates the organization and its owner with the setup token. Using one token burns every
 * setup token, in the transaction that creates the organization, so two racing browsers (or
 * two tokens from two processes) cannot both succeed.
 */
export async function completeSetup(
  ctx: AppContext,
  input: { token: string; organization: { name: string; slug: string }; name: string; email: string; password: string },
  client: Client,
) {
  checkPasswordRules(input.password);
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(input.organization.slug)) throw invalid({ 'organization.slug': 'lowercase letters, digits and dashes, at most 63' });
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.nowIso();
    const used = await trx
      .updateTable('setup_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', hashToken(input.token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw badLink('setup');
    await trx.updateTable('setup_tokens').set({ used_at: now }).where('used_at', 'is', null).execute();
    if (await trx.selectFrom('organizations').select('id').limit(1).executeTakeFirst()) throw badLink('setup');
    const org = await trx
      .insertInto('organizations')
      .values({ name: input.organization.name, slug: input.organization.slug, created_at: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = await trx
      .insertInto('users')
      .values({ organization_id: org.id, kind: 'human', name: input.name, email: normalEmail(input.email), role: 'owner', created_at: now, password_hash: passwordHash })
      .returning('id')
      .executeTakeFirstOrThrow();
    const session = await startSession(ctx, trx, user.id, client);
    return { session, payload: await sessionPayload(ctx, trx, session) };
  });
}

// ---------------------------------------------------------------------------------------------
// Sign-in

/**
 * The session for a right e-mail and password, or null. Every path verifies exactly one argon2
 * hash per candidate account (a dummy one when there is none), so an unknown address costs the
 * same time as a wrong password. E-mail addresses are unique per organization: the first
 * account (oldest) whose password matches signs in.
 */
export async function signIn(ctx: AppContext, input: { email: string; password: string }, client: Client) {
  const candidates = await ctx.db
    .selectFrom('users')
    .select(['id', 'password_hash', 'active'])
    .where('kind', '=', 'human')
    .where((eb) => eb(eb.fn('lower', ['email']), '=', normalEmail(input.email)))
    .orderBy('id')
    .execute();
  if (candidates.length === 0) await verifyPassword(null, input.password);
  for (const candidate of candidates) {
    if ((await verifyPassword(candidate.password_hash, input.password)) && candidate.active) {
      const session = await startSession(ctx, ctx.db, candidate.id, client);
      return { session, payload: await sessionPayload(ctx, ctx.db, session) };
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// People

function personJson(row: { id: number; kind: 'human' | 'service'; email: string | null; name: string; role: WorkspaceRole; active: number; created_at: string }) {
  return { id: row.id, kind: row.kind, email: row.email, name: row.name, role: row.role, active: row.active === 1, created_at: row.created_at };
}

const PERSON_COLUMNS = ['id', 'kind', 'email', 'name', 'role', 'active', 'created_at'] as const;

export async function listPeople(ctx: AppContext, principal: Pick<Principal, 'organizationId'>) {
  const rows = await ctx.db.selectFrom('users').select(PERSON_COLUMNS).where('organization_id', '=', principal.organizationId).orderBy('id').execute();
  return rows.map(personJson);
}

async function personInOrg(db: Executor, principal: Principal, id: number) {
  const row = await db.selectFrom('users').select(PERSON_COLUMNS).where('id', '=', id).where('organization_id', '=', principal.organizationId).executeTakeFirst();
  if (!row) throw notFound('Person');
  return row;
}

/**
 * Role and active changes. Owners and admins may change people; only an owner may touch an
 * owner or make someone owner. The organization always keeps one active owner.
 */
export async function updatePerson(ctx: AppContext, principal: Principal, id: number, input: { role?: WorkspaceRole; active?: boolean }) {
  requireManager(principal);
  return ctx.db.transaction().execute(async (trx) => {
    await lockOrganization(ctx, trx, principal.organizationId);
    const person = await personInOrg(trx, principal, id);
    const role = input.role ?? person.role;
    const active = input.active === undefined ? person.active === 1 : input.active;
    if ((person.role === 'owner' || role === 'owner') && !can(principal, 'people.manage-owners', WORKSPACE) && (role !== person.role || active !== (person.active === 1))) {
      throw forbidden('Only an owner can change an owner or make someone owner.');
    }
    if (person.kind === 'service' && role === 'owner') throw invalid({ role: 'a service account cannot be an owner' });
    if (person.role === 'owner' && person.active === 1 && (role !== 'owner' || !active)) {
      const others = await trx
        .selectFrom('users')
        .select('id')
        .where('organization_id', '=', principal.organizationId)
        .where('role', '=', 'owner')
        .where('active', '=', 1)
        .where('id', '<>', id)
        .limit(1)
        .executeTakeFirst();
      if (!others) throw new ApiError('LAST_OWNER', 'The organization must keep at least one active owner: make someone else owner first.');
    }
    const now = ctx.clock.nowIso();
    if (role !== person.role || active !== (person.active === 1)) {
      await trx.updateTable('users').set({ role, active: active ? 1 : 0 }).where('id', '=', id).execute();
    }
    // Deactivation ends the person's sessions at once (their tokens stop at the active check).
    if (!active) await endSessionsOf(trx, id, now);
    return personJson({ ...person, role, active: active ? 1 : 0 });
  });
}

export async function createServiceAccount(ctx: AppContext, principal: Principal, input: { name: string; role: WorkspaceRole }) {
  requireManager(principal);
  if (input.role === 'owner') throw invalid({ role: 'a service account cannot be an owner' });
  const row = await ctx.db
    .insertInto('users')
    .values({ organization_id: principal.organizationId, kind: 'service', name: input.name, email: null, role: input.role, created_at: ctx.clock.nowIso() })
    .returning(PERSON_COLUMNS)
    .executeTakeFirstOrThrow();
  return personJson(row);
}

// ---------------------------------------------------------------------------------------------
// Profile

export async function getProfile(ctx: AppContext, principal: Principal) {
  return personJson(await personInOrg(ctx.db, principal, principal.userId));
}

export async function updateProfile(ctx: AppContext, principal: Principal, input: { name?: string }) {
  if (input.name !== undefined) await ctx.db.updateTable('users').set({ name: input.name }).where('id', '=', principal.userId).execute();
  return getProfile(ctx, principal);
}

/** Changes one's password after checking the current one; every other session of the person ends. */
export async function changePassword(ctx: AppContext, principal: Principal, input: { current_password: string; new_password: string }) {
  checkPasswordRules(input.new_password, 'new_password');
  const row = await ctx.db.selectFrom('users').select('password_hash').where('id', '=', principal.userId).executeTakeFirstOrThrow();
  if (!(await verifyPassword(row.password_hash, input.current_password))) throw invalid({ current_password: 'is not your current password' });
  const passwordHash = await hashPassword(input.new_password);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', principal.userId).execute();
    await endSessionsOf(trx, principal.userId, ctx.clock.nowIso(), principal.sessionId);
  });
}

/** Sets a person's password (operator CLI); their sessions end. */
export async function setPassword(ctx: AppContext, userId: number, password: string) {
  checkPasswordRules(password);
  const user = await ctx.db.selectFrom('users').select(['id', 'kind']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw notFound(`User ${userId}`);
  if (user.kind !== 'human') throw invalid({ user: 'service accounts sign in with tokens, not passwords' });
  const passwordHash = await hashPassword(password);
  await ctx.db.transaction().execute(async (trx) => {
    await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
    await endSessionsOf(trx, userId, ctx.clock.nowIso());
  });
  return { id: userId, password_set: true };
}

// ---------------------------------------------------------------------------------------------
// Organization

export async function getOrganization(ctx: AppContext, principal: Principal) {
  return ctx.db.selectFrom('organizations').select(['id', 'slug', 'name', 'created_at']).where('id', '=', principal.organizationId).executeTakeFirstOrThrow();
}

export async function updateOrganization(ctx: AppContext, principal: Principal, input: { name?: string }) {
  requireManager(principal);
  if (input.name !== undefined) await ctx.db.updateTable('organizations').set({ name: input.name }).where('id', '=', principal.organizationId).execute();
  return getOrganization(ctx, principal);
}

// ---------------------------------------------------------------------------------------------
// Invitations

async function sendMail(ctx: AppContext, to: string, subject: string, text: string): Promise<boolean> {
  const mailer = webhookIo(ctx).mailer;
  if (!mailer) return false;
  await mailer.send({ to: [to], subject, text });
  return true;
}

export async function createInvitation(ctx: AppContext, principal: Principal, input: { email: string; role: WorkspaceRole }, base: string) {
  requireManager(principal);
  if (input.role === 'owner' && !can(principal, 'people.manage-owners', WORKSPACE)) throw forbidden('Only an owner can invite an owner.');
  const organization = { id: principal.organizationId, name: principal.organizationName };
  return invite(ctx, organization, { id: principal.userId, name: principal.userName }, input, base);
}

/** The invitation itself, for the console and the operator CLI (no inviter). */
export async function invite(
  ctx: AppContext,
  organization: { id: number; name: string },
  inviter: { id: number; name: string } | null,
  input: { email: string; role: WorkspaceRole },
  base: string,
) {
  const email = normalEmail(input.email);
  const taken = await ctx.db
    .selectFrom('users')
    .select('id')
    .where('organization_id', '=', organization.id)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
    .executeTakeFirst();
  if (taken) throw new ApiError('ALREADY_EXISTS', `${email} already has an account in this organization.`, { field: 'email' });
  const token = newLinkToken();
  const row = await ctx.db
    .insertInto('invitations')
    .values({
      organization_id: organization.id,
      email,
      role: input.role,
      token_hash: hashToken(token),
      invited_by: inviter?.id ?? null,
      created_at: ctx.clock.nowIso(),
      expires_at: isoFromMs(ctx.clock.nowMs() + ctx.config.links.invitationMs),
      accepted_at: null,
      accepted_user_id: null,
      revoked_at: null,
    })
    .returning(['id', 'email', 'role', 'created_at', 'expires_at'])
    .executeTakeFirstOrThrow();
  const url = `${base}/invite#token=${token}`;
  const who = inviter ? `${inviter.name} invited you` : 'You are invited';
  const emailed = await sendMail(
    ctx,
    email,
    `${who} to ${organization.name} on tasktracker`,
    `${who} to join ${organization.name} as ${input.role}.\n\nOpen this link to choose your name and password (it works once, until ${row.expires_at}):\n${url}\n`,
  ).catch(() => false);
  return { ...row, invited_by: inviter, url, emailed };
}

export async function listInvitations(ctx: AppContext, principal: Principal) {
  requireManager(principal);
  const rows = await ctx.db
    .selectFrom('invitations as i')
    .leftJoin('users as u', 'u.id', 'i.invited_by')
    .select(['i.id', 'i.email', 'i.role', 'i.created_at', 'i.expires_at', 'u.id as inviter_id', 'u.name as inviter_name'])
    .where('i.organization_id', '=', principal.organizationId)
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .where('i.expires_at', '>', ctx.clock.nowIso())
    .orderBy('i.id')
    .execute();
  return rows.map(({ inviter_id, inviter_name, ...row }) => ({ ...row, invited_by: inviter_id === null ? null : { id: inviter_id, name: inviter_name ?? '' } }));
}

export async function revokeInvitation(ctx: AppContext, principal: Principal, id: number) {
  requireManager(principal);
  const result = await ctx.db
    .updateTable('invitations')
    .set({ revoked_at: ctx.clock.nowIso() })
    .where('id', '=', id)
    .where('organization_id', '=', principal.organizationId)
    .where('accepted_at', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw notFound('Invitation');
}

function pendingInvitation(db: Executor, token: string, now: string) {
  return db
    .selectFrom('invitations as i')
    .innerJoin('organizations as o', 'o.id', 'i.organization_id')
    .select(['i.id', 'i.email', 'i.role', 'i.expires_at', 'i.organization_id', 'o.name as organization_name'])
    .where('i.token_hash', '=', hashToken(token))
    .where('i.accepted_at', 'is', null)
    .where('i.revoked_at', 'is', null)
    .where('i.expires_at', '>', now)
    .executeTakeFirst();
}

export async function lookupInvitation(ctx: AppContext, token: string) {
  const row = await pendingInvitation(ctx.db, token, ctx.clock.nowIso());
  if (!row) throw notFound('Invitation (the link may have been used or have expired)');
  return { email: row.email, role: row.role, organization: { name: row.organization_name }, expires_at: row.expires_at };
}

/** Creates the invited person with their name and password, and signs them in. The link works once. */
export async function acceptInvitation(ctx: AppContext, input: { token: string; name: string; password: string }, client: Client) {
  checkPasswordRules(input.password);
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.nowIso();
    const invitation = await pendingInvitation(trx, input.token, now);
    if (!invitation) throw badLink('invitation');
    const claimed = await trx.updateTable('invitations').set({ accepted_at: now }).where('id', '=', invitation.id).where('accepted_at', 'is', null).executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) throw badLink('invitation');
    let user;
    try {
      user = await trx
        .insertInto('users')
        .values({ organization_id: invitation.organization_id, kind: 'human', name: input.name, email: invitation.email, role: invitation.role, created_at: now, password_hash: passwordHash })
        .returning('id')
        .executeTakeFirstOrThrow();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('ALREADY_EXISTS', `${invitation.email} already has an account in this organization.`, { field: 'email' });
      throw error;
    }
    await trx.updateTable('invitations').set({ accepted_user_id: user.id }).where('id', '=', invitation.id).execute();
    const session = await startSession(ctx, trx, user.id, client);
    return { session, payload: await sessionPayload(ctx, trx, session) };
  });
}

// ---------------------------------------------------------------------------------------------
// Password resets

async function insertReset(ctx: AppContext, userId: number, createdBy: number | null, base: string) {
  const token = newLinkToken();
  const expiresAt = isoFromMs(ctx.clock.nowMs() + ctx.config.links.passwordResetMs);
  await ctx.db
    .insertInto('password_resets')
    .values({ user_id: userId, token_hash: hashToken(token), created_by: createdBy, created_at: ctx.clock.nowIso(), expires_at: expiresAt, used_at: null })
    .execute();
  return { url: `${base}/reset-password#token=${token}`, expires_at: expiresAt };
}

/** An owner or admin issues a reset link for a person (only an owner for an owner); shown to the issuer. */
export async function issuePasswordReset(ctx: AppContext, principal: Principal, id: number, base: string) {
  requireManager(principal);
  const person = await personInOrg(ctx.db, principal, id);
  if (person.kind !== 'human') throw invalid({ id: 'service accounts sign in with tokens, not passwords' });
  if (person.role === 'owner' && !can(principal, 'people.manage-owners', WORKSPACE)) throw forbidden('Only an owner can reset an owner\'s password.');
  if (person.active !== 1) throw invalid({ id: 'the person is deactivated' });
  return insertReset(ctx, id, principal.userId, base);
}

/**
 * Self-service: mails a reset link to each active person with that address, when SMTP is
 * configured. The answer never says whether anyone was found; the mail goes out after it.
 */
export async function requestPasswordReset(ctx: AppContext, email: string, base: string): Promise<{ mailing: Promise<void> }> {
  if (!webhookIo(ctx).mailer) return { mailing: Promise.resolve() };
  const people = await ctx.db
    .selectFrom('users')
    .select(['id', 'email', 'name'])
    .where('kind', '=', 'human')
    .where('active', '=', 1)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', normalEmail(email)))
    .execute();
  const links = await Promise.all(people.map(async (person) => ({ person, link: await insertReset(ctx, person.id, null, base) })));
  const mailing = (async () => {
    for (const { person, link } of links) {
      await sendMail(
        ctx,
        person.email!,
        'Reset your tasktracker password',
        `Someone (hopefully you) asked to reset the password of ${person.name}.\n\nOpen this link to choose a new one (it works once, until ${link.expires_at}):\n${link.url}\n\nIf it was not you, ignore this message.\n`,
      );
    }
  })();
  return { mailing };
}

/** Sets the new password with a reset link, ends every session of the person and signs them in. */
export async function completePasswordReset(ctx: AppContext, input: { token: string; password: string }, client: Client) {
  checkPasswordRules(input.password);
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction().execute(async (trx) => {
    const now = ctx.clock.nowIso();
    const reset = await trx
      .updateTable('password_resets')
      .set({ used_at: now })
      .where('token_hash', '=', hashToken(input.token))
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    if (!reset) throw badLink('password reset');
    const user = await trx.selectFrom('users').select(['id', 'active']).where('id', '=', reset.user_id).executeTakeFirstOrThrow();
    if (!user.active) throw badLink('password reset');
    await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', user.id).execute();
    await endSessionsOf(trx, user.id, now);
    const session = await startSession(ctx, trx, user.id, client);
    return { session, payload: await sessionPayload(ctx, trx, session) };
  });
}

// ---------------------------------------------------------------------------------------------
// API tokens

/** Owners and admins see and manage every token of the organization; anyone else their own account's. */
function tokensQuery(ctx: AppContext, principal: Principal) {
  return tokensWhere(ctx, { organizationId: principal.organizationId, accountId: can(principal, 'people.manage', WORKSPACE) ? undefined : principal.userId });
}

function tokensWhere(ctx: AppContext, filter: { organizationId?: number; accountId?: number }) {
  let query = ctx.db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .leftJoin('api_token_usage as tu', 'tu.token_id', 't.id')
    .select(['t.id', 't.name', 'u.id as account_id', 'u.name as account_name', 't.scopes', 't.project_ids', 't.created_at', 't.expires_at', 'tu.last_used_at'])
    .where('t.revoked_at', 'is', null);
  if (filter.organizationId !== undefined) query = query.where('u.organization_id', '=', filter.organizationId);
  if (filter.accountId !== undefined) query = query.where('u.id', '=', filter.accountId);
  return query;
}

export function listTokens(ctx: AppContext, principal: Principal) {
  return presentTokens(ctx, tokensQuery(ctx, principal));
}

/** Live (unrevoked) tokens for the operator CLI, optionally of one organization or account. */
export function listTokensFor(ctx: AppContext, filter: { organizationId?: number; accountId?: number }) {
  return presentTokens(ctx, tokensWhere(ctx, filter));
}

async function presentTokens(ctx: AppContext, query: ReturnType<typeof tokensWhere>) {
  const rows = await query.orderBy('t.id').execute();
  const projectIds = [...new Set(rows.flatMap((r) => (r.project_ids ? (JSON.parse(r.project_ids) as number[]) : [])))];
  const keys = new Map(
    projectIds.length
      ? (await ctx.db.selectFrom('projects').select(['id', 'key']).where('id', 'in', projectIds).execute()).map((p) => [p.id, p.key])
      : [],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    account: { id: r.account_id, name: r.account_name },
    scopes: JSON.parse(r.scopes) as string[],
    projects: r.project_ids === null ? null : (JSON.parse(r.project_ids) as number[]).flatMap((id) => (keys.has(id) ? [keys.get(id)!] : [])).sort(),
    created_at: r.created_at,
    expires_at: r.expires_at,
    last_used_at: r.last_used_at ?? null,
  }));
}

export async function createConsoleToken(
  ctx: AppContext,
  principal: Principal,
  input: { name: string; account: number; scopes: string[]; projects?: string[]; expires_in_hours?: number },
) {
  const account = await personInOrg(ctx.db, principal, input.account);
  if (account.id !== principal.userId) requireManager(principal);
  if (account.active !== 1) throw invalid({ account: 'the account is deactivated' });
  const created = await createToken(ctx, {
    accountId: account.id,
    scopes: input.scopes,
    projectKeys: input.projects,
    expiresInHours: input.expires_in_hours,
    name: input.name,
  });
  const [record] = (await listTokens(ctx, principal)).filter((t) => t.id === created.id);
  return { ...record!, token: created.token };
}

export async function revokeConsoleToken(ctx: AppContext, principal: Principal, id: number) {
  const row = await ctx.db
    .selectFrom('api_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .select(['t.id', 'u.id as account_id'])
    .where('t.id', '=', id)
    .where('u.organization_id', '=', principal.organizationId)
    .where('t.revoked_at', 'is', null)
    .executeTakeFirst();
  if (!row || (row.account_id !== principal.userId && !can(principal, 'people.manage', WORKSPACE))) throw notFound('Token');
  await revokeToken(ctx, id);
}

// ---------------------------------------------------------------------------------------------
// Notifications

export async function listOwnNotifications(ctx: AppContext, principal: Principal) {
  const rows = await ctx.db
    .selectFrom('notifications')
    .select(['id', 'kind', 'subject', 'data', 'created_at', 'read_at'])
    .where('user_id', '=', principal.userId)
    .orderBy('id', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => {
    const data = JSON.parse(r.data) as { endpoint_id?: number };
    return { id: r.id, kind: r.kind, message: r.subject, endpoint: data.endpoint_id ?? null, created_at: r.created_at, read_at: r.read_at };
  });
}

export async function markNotificationRead(ctx: AppContext, principal: Principal, id: number) {
  const row = await ctx.db.selectFrom('notifications').select(['id', 'read_at']).where('id', '=', id).where('user_id', '=', principal.userId).executeTakeFirst();
  if (!row) throw notFound('Notification');
  if (!row.read_at) await ctx.db.updateTable('notifications').set({ read_at: ctx.clock.nowIso() }).where('id', '=', id).execute();
}
