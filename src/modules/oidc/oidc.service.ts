import { isoFromMs } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import type { ProjectRole, WorkspaceRole } from '../../db/schema.ts';
import { inTransaction, type Tx } from '../../db/unit-of-work.ts';
import type { ActionOrigin } from '../../events/record-event.ts';
import { forbidden, notFound } from '../../http/errors.ts';
import type { OidcConfig } from '../../identity/oidc-config.ts';
import type { Principal } from '../../identity/principal.ts';
import { hashToken } from '../../identity/tokens.ts';
import { handleForNewAccount } from '../accounts/handles.service.ts';
import { type Client, normalEmail } from '../../identity/client.ts';
import { hasAnotherActiveOwner, insertUser, lockOrganization, setRoleAndActive } from '../people/people.repository.ts';
import { recordAudit, type AuditActor } from '../audit/record-audit.ts';
import { personTarget } from '../people/people.service.ts';
import { recordFailedSignIn, signInWith } from '../../identity/sign-in.service.ts';
import * as memberships from '../projects/memberships.repository.ts';
import { recordMembershipChangedEvent } from '../projects/memberships.service.ts';
import { lockProjectForDecision } from '../projects/projects.repository.ts';
import { groupsOf, mayCreate, reconciledProjectRole, reconciledRole } from './mapping.ts';
import * as client from './oidc.client.ts';
import { projectsByKeys } from '../accounts/accounts.repository.ts';
import * as repo from './oidc.repository.ts';
import { effectiveMapping } from './mapping-settings.service.ts';

/**
 * Sign-in with the organization's OpenID provider (docs/operating/oidc.md): starting a flow,
 * taking its callback once, finding or creating the person, reconciling their roles with their
 * groups, and an owner's test sign-in that shows all of it without signing anyone in.
 */

/** A flow must come back from the provider within this long. */
const FLOW_TTL_MS = 10 * 60 * 1000;
/** A test sign-in's result can be read this long after it was started. */
const TEST_RESULT_TTL_MS = 60 * 60 * 1000;

export function configured(ctx: AppContext): OidcConfig {
  if (!ctx.config.oidc) throw notFound('OpenID Connect sign-in (OIDC_ISSUER is not set)');
  return ctx.config.oidc;
}

/** What the sign-in screen shows. */
export function publicInfo(ctx: AppContext) {
  const oidc = ctx.config.oidc;
  return { enabled: oidc !== null, name: oidc?.name ?? null, password_sign_in: oidc ? oidc.passwordSignIn : true };
}

/** Only a path on this site, so the return after sign-in cannot send the browser elsewhere. */
export const safeNext = (next: string | undefined) =>
  next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next.slice(0, 500) : '/';

/** Records a new flow and answers the provider URL to send the browser to, and the state for its cookie. */
export async function beginFlow(
  ctx: AppContext,
  purpose: 'sign-in' | 'test',
  options: { requestedBy: number | null; next: string },
): Promise<{ url: string; state: string }> {
  const oidc = configured(ctx);
  const secrets = client.newFlowSecrets();
  const url = await client.authorizationUrl(ctx, oidc, secrets, { forceLogin: purpose === 'test' });
  const now = ctx.clock.nowMs();
  await repo.insertLogin(ctx.db, {
    state_hash: hashToken(secrets.state),
    nonce: secrets.nonce,
    code_verifier: secrets.codeVerifier,
    purpose,
    requested_by: options.requestedBy,
    next_path: safeNext(options.next),
    created_at: isoFromMs(now),
    expires_at: isoFromMs(now + (purpose === 'test' ? TEST_RESULT_TTL_MS : FLOW_TTL_MS)),
    used_at: null,
    result: null,
  });
  return { url, state: secrets.state };
}

/** Why a sign-in with the provider was refused; the web app's page for it explains each. */
export type Refusal =
  'state' | 'provider' | 'email_unverified' | 'not_allowed' | 'deactivated' | 'organization' | 'not_configured';

export class OidcRefusal extends Error {
  constructor(
    readonly reason: Refusal,
    message: string,
    /** The e-mail the provider named, when known: the refusal is recorded as a failed sign-in of its people. */
    readonly email: string | null = null,
  ) {
    super(message);
  }
}

export type CallbackOutcome =
  | { kind: 'signed-in'; session: Awaited<ReturnType<typeof signInWith>>['session']; next: string }
  | { kind: 'tested'; id: number };

/**
 * Takes the provider's answer at the callback: the state must be the browser's own (its cookie)
 * and a live, unused flow's; then openid-client checks the rest. A sign-in finds or creates the
 * person and starts a session; a test stores what it found for the owner. Throws OidcRefusal.
 */
export async function completeFlow(
  ctx: AppContext,
  input: { url: URL; cookieState: string | undefined; client: Client },
): Promise<CallbackOutcome> {
  const oidc = ctx.config.oidc;
  if (!oidc) throw new OidcRefusal('not_configured', 'OpenID Connect sign-in is not configured.');
  const state = input.url.searchParams.get('state') ?? '';
  if (!state || state !== input.cookieState)
    throw new OidcRefusal('state', 'The sign-in did not start in this browser, or its state was altered.');
  const flow = await repo.useLogin(ctx.db, hashToken(state), ctx.clock.nowIso());
  if (!flow) throw new OidcRefusal('state', 'This sign-in has expired or was already used. Start again.');
  let identity: client.ProviderIdentity;
  try {
    identity = await client.exchangeCode(ctx, oidc, input.url, {
      state,
      nonce: flow.nonce,
      codeVerifier: flow.code_verifier,
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    if (flow.purpose === 'test') {
      const result: StoredTestResult = { ok: false, error: detail, claims: null, plan: null };
      await repo.saveTestResult(ctx.db, flow.id, JSON.stringify(result));
      return { kind: 'tested', id: flow.id };
    }
    throw new OidcRefusal('provider', detail);
  }
  if (flow.purpose === 'test') {
    const plan = await planFor(ctx.db, oidc, identity).catch((error: unknown) =>
      error instanceof OidcRefusal ? { refused: error.reason, message: error.message } : Promise.reject(error),
    );
    const result: StoredTestResult = { ok: true, error: null, claims: identity.claims, plan: describePlan(plan) };
    await repo.saveTestResult(ctx.db, flow.id, JSON.stringify(result));
    return { kind: 'tested', id: flow.id };
  }
  try {
    const session = await inTransaction(ctx, async (tx) => {
      const plan = await planFor(tx.db, oidc, identity);
      const userId = await applyPlan(tx, identity, plan, input.client);
      return (await signInWith(tx, userId, input.client, 'oidc')).session;
    });
    return { kind: 'signed-in', session, next: flow.next_path };
  } catch (error) {
    if (error instanceof OidcRefusal && error.email) await recordFailedSignIn(ctx, error.email, input.client, 'oidc');
    throw error;
  }
}

interface Plan {
  organization: { id: number; slug: string; name: string };
  email: string | null;
  name: string;
  groups: string[];
  /** The person found (by link or verified e-mail), or null: create one. */
  person: { id: number; role: WorkspaceRole; name: string; email: string | null; linked: boolean } | null;
  role: { from: WorkspaceRole | null; to: WorkspaceRole; keptLastOwner: boolean };
  projects: Array<{ id: number; key: string; from: ProjectRole | null; to: ProjectRole | null }>;
  /** Project keys the mapping names that the organization does not have. */
  missingProjects: string[];
}

const refuse = (reason: Refusal, message: string, email: string | null = null) =>
  new OidcRefusal(reason, message, email);

function emailOf(claims: Record<string, unknown>): { email: string | null; verified: boolean } {
  const email = typeof claims.email === 'string' && claims.email.includes('@') ? normalEmail(claims.email) : null;
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  return { email, verified };
}

/** Who signs in and what changes for them; reads only. Throws OidcRefusal when they may not sign in. */
async function planFor(db: Executor, oidc: OidcConfig, identity: client.ProviderIdentity): Promise<Plan> {
  const organization = await repo.organizationFor(db, oidc.organization);
  if (!organization)
    throw refuse(
      'organization',
      oidc.organization
        ? `OIDC_ORGANIZATION names no organization (${oidc.organization}).`
        : 'There are several organizations (or none): set OIDC_ORGANIZATION to the one people sign in to.',
    );
  // The mapping saved in Settings → Sign-in, else the environment's.
  const rules: OidcConfig = { ...oidc, ...(await effectiveMapping(db, oidc, organization.id)) };
  const groups = groupsOf(identity.claims, rules.groupsClaim);
  const { email, verified } = emailOf(identity.claims);
  const name =
    (typeof identity.claims.name === 'string' && identity.claims.name.trim()) ||
    (typeof identity.claims.preferred_username === 'string' && identity.claims.preferred_username.trim()) ||
    (email ? email.slice(0, email.indexOf('@')) : identity.subject);

  let person: Plan['person'] = null;
  const linked = await repo.findIdentity(db, identity.issuer, identity.subject);
  if (linked && linked.organization_id === organization.id) {
    if (!linked.active) throw refuse('deactivated', 'Your account is deactivated in tasktracker.', linked.email);
    person = { id: linked.user_id, role: linked.role, name: linked.name, email: linked.email, linked: true };
  } else {
    if (!email || !verified)
      throw refuse('email_unverified', 'The identity provider did not send a verified e-mail address.', email);
    const matches = await repo.humansWithEmailIn(db, organization.id, email);
    const match = matches.find((row) => row.active === 1);
    if (!match && matches.length > 0) throw refuse('deactivated', 'Your account is deactivated in tasktracker.', email);
    if (match) person = { id: match.id, role: match.role, name: match.name, email: match.email, linked: false };
    else {
      const decision = mayCreate(rules, email, groups);
      if (!decision.allowed) throw refuse('not_allowed', `No account for ${email}: ${decision.why}.`);
    }
  }

  const currentRole = person?.role ?? null;
  let targetRole = reconciledRole(rules, groups, currentRole ?? rules.defaultRole);
  let keptLastOwner = false;
  if (person && currentRole === 'owner' && targetRole !== 'owner') {
    if (!(await hasAnotherActiveOwner(db, organization.id, person.id))) {
      targetRole = 'owner';
      keptLastOwner = true;
    }
  }

  const keys = [...new Set(rules.projectMap.map((entry) => entry.project))];
  const projects = await projectsByKeys(db, organization.id, keys);
  const current = person
    ? await repo.membershipsOf(
        db,
        person.id,
        projects.map((p) => p.id),
      )
    : [];
  const projectPlans = projects.map((project) => {
    const from = current.find((m) => m.project_id === project.id)?.role ?? null;
    return { id: project.id, key: project.key, from, to: reconciledProjectRole(rules, groups, project.key, from) };
  });
  return {
    organization,
    email,
    name,
    groups,
    person,
    role: { from: currentRole, to: targetRole, keptLastOwner },
    projects: projectPlans,
    missingProjects: keys.filter((key) => !projects.some((p) => p.key === key)),
  };
}

/** What the test sign-in page shows: the decision in words and in fields. */
function describePlan(plan: Plan | { refused: Refusal; message: string }) {
  if ('refused' in plan) return { outcome: 'refused' as const, refusal: plan.refused, message: plan.message };
  return {
    outcome: plan.person ? (plan.person.linked ? ('signed_in' as const) : ('linked' as const)) : ('created' as const),
    refusal: null,
    message: plan.person
      ? `Would sign in as ${plan.person.name} (${plan.person.email ?? 'no e-mail'})${plan.person.linked ? '' : ', linking the account by its verified e-mail'}.`
      : `Would create ${plan.name} (${plan.email}) in ${plan.organization.name}.`,
    organization: plan.organization.slug,
    groups: plan.groups,
    role: plan.role,
    projects: plan.projects.map(({ key, from, to }) => ({ project: key, from, to })),
    missing_projects: plan.missingProjects,
  };
}

/** Makes the plan true in the sign-in's transaction; answers the person's id. */
async function applyPlan(tx: Tx, identity: client.ProviderIdentity, plan: Plan, who: Client): Promise<number> {
  const now = tx.clock.nowIso();
  await lockOrganization(tx.db, tx.dialect, plan.organization.id);
  let userId: number;
  if (plan.person === null) {
    const account = { kind: 'human' as const, name: plan.name.slice(0, 200), email: plan.email };
    const row = await insertUser(tx.db, {
      organization_id: plan.organization.id,
      ...account,
      handle: await handleForNewAccount(tx, plan.organization.id, account),
      role: plan.role.to,
      created_at: now,
    });
    userId = row.id;
    await recordAudit(tx, {
      ...auditOf(plan, userId, who),
      action: 'person.joined',
      target: personTarget(row),
      after: { role: plan.role.to, via: 'oidc' },
    });
  } else {
    userId = plan.person.id;
    // Decided again under the organization's lock: another sign-in may have changed the owners.
    const current = await repo.findAccountRole(tx.db, userId);
    const demotesLastOwner =
      current.role === 'owner' &&
      plan.role.to !== 'owner' &&
      !(await hasAnotherActiveOwner(tx.db, plan.organization.id, userId));
    if (current.role !== plan.role.to && !demotesLastOwner) {
      await setRoleAndActive(tx.db, userId, { role: plan.role.to, active: true }, now);
      await recordAudit(tx, {
        ...auditOf(plan, userId, who),
        action: 'person.role_changed',
        target: personTarget({ id: userId, name: current.name, email: plan.person.email }),
        before: { role: current.role },
        after: { role: plan.role.to, via: 'oidc_mapping' },
      });
    }
  }
  const linked = await repo.findIdentity(tx.db, identity.issuer, identity.subject);
  if (linked) await repo.touchIdentity(tx.db, linked.id, now);
  else
    await repo.insertIdentity(tx.db, { user_id: userId, issuer: identity.issuer, subject: identity.subject, at: now });

  const origin: ActionOrigin = {
    organization: plan.organization,
    actor: { id: userId, email: plan.email ?? plan.person?.email ?? '', name: plan.person?.name ?? plan.name },
    source: 'app',
    correlationId: who.requestId ?? '',
  };
  for (const project of plan.projects)
    await reconcileMembership(tx, userId, project, origin, auditOf(plan, userId, who));
  return userId;
}

/**
 * What the audit records of a sign-in's changes share: the person acting on themselves through
 * the group mapping (no session yet: it starts after), from the sign-in's request.
 */
function auditOf(plan: Plan, userId: number, who: Client) {
  const actor: AuditActor = {
    userId,
    label: `${plan.person?.name ?? plan.name} (OIDC group mapping)`,
    tokenId: null,
    sessionId: null,
    source: 'app',
  };
  return { organizationId: plan.organization.id, actor, address: who.ip, correlationId: who.requestId };
}

/** One mapped project's membership, under the project's lock; a project's last admin is never removed or demoted. */
async function reconcileMembership(
  tx: Tx,
  userId: number,
  project: Plan['projects'][number],
  origin: ActionOrigin,
  audit: ReturnType<typeof auditOf>,
): Promise<void> {
  if (project.from === project.to) return;
  const now = tx.clock.nowIso();
  await lockProjectForDecision(tx.db, tx.dialect, project.id);
  const [existing] = await repo.membershipsOf(tx.db, userId, [project.id]);
  const from = existing?.role ?? null;
  if (from === project.to) return;
  if (existing && from === 'admin' && !(await memberships.findOtherAdmin(tx.db, project.id, existing.id))) return;
  const user = await repo.findAccountRole(tx.db, userId);
  const via = 'oidc_mapping';
  const target = (id: number) => ({
    target: { type: 'membership' as const, id, label: `${user.name} in ${project.key}` },
    projectId: project.id,
  });
  const json = (id: number, role: ProjectRole) => ({
    id,
    project: project.id,
    project_key: project.key,
    user: userId,
    user_name: user.name,
    user_handle: '',
    user_kind: 'human' as const,
    role,
    created_at: now,
    updated_at: now,
  });
  if (!existing) {
    const id = await memberships.insertMembership(tx.db, {
      project_id: project.id,
      user_id: userId,
      role: project.to!,
      at: now,
    });
    await recordMembershipChangedEvent(tx, origin, json(id, project.to!), 'added', null, project.to);
    await recordAudit(tx, { ...audit, ...target(id), action: 'membership.added', after: { role: project.to, via } });
  } else if (project.to === null) {
    await memberships.deleteMembershipRow(tx.db, existing.id);
    await recordMembershipChangedEvent(tx, origin, json(existing.id, existing.role), 'removed', existing.role, null);
    await recordAudit(tx, {
      ...audit,
      ...target(existing.id),
      action: 'membership.removed',
      before: { role: existing.role },
      after: { via },
    });
  } else {
    await memberships.updateMembershipRole(tx.db, existing.id, project.to, now);
    await recordMembershipChangedEvent(
      tx,
      origin,
      json(existing.id, project.to),
      'role_changed',
      existing.role,
      project.to,
    );
    await recordAudit(tx, {
      ...audit,
      ...target(existing.id),
      action: 'membership.changed',
      before: { role: existing.role },
      after: { role: project.to, via },
    });
  }
}

/** What a test sign-in stores: the provider's answer or its error, and the decision the claims lead to. */
interface StoredTestResult {
  ok: boolean;
  error: string | null;
  claims: Record<string, unknown> | null;
  plan: Record<string, unknown> | null;
}

/** An owner's test sign-in result; only the owner who started it sees it. */
export async function testResult(ctx: AppContext, principal: Principal, id: number) {
  if (principal.role !== 'owner') throw forbidden('Only owners can run a test sign-in.');
  const row = await repo.findTestResult(ctx.db, id, principal.userId);
  if (!row) throw notFound(`Test sign-in ${id}`);
  return { id: row.id, created_at: row.created_at, ...(JSON.parse(row.result!) as StoredTestResult) };
}

export function assertOwner(principal: Principal): void {
  if (principal.role !== 'owner') throw forbidden('Only owners can run a test sign-in.');
}

/** Deletes flows (and test results) that ended over a day ago; run by the worker. */
export async function purgeEndedFlows(ctx: AppContext): Promise<void> {
  await repo.deleteExpiredLogins(ctx.db, isoFromMs(ctx.clock.nowMs() - 24 * 3600 * 1000));
}
