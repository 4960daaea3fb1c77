import { isoFromMs } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import { type Executor, isUniqueViolation } from '../../db/database.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import type { ProjectRole, WorkspaceRole } from '../../db/schema.ts';
import { ApiError, foundOr404, invalid, notFound } from '../../http/errors.ts';
import type { Principal } from '../../identity/principal.ts';
import { hashToken } from '../../identity/tokens.ts';
import {
  authorize,
  invitationIssuerMayStillGrant,
  issuerAsNow,
  linkIssuerMayStillIssue,
  projectFor,
} from '../../policy/index.ts';
import {
  grantInvitationProjects,
  insertInvitationProjects,
  projectsOfInvitations,
  projectsOfInvitationWithIssuerRole,
} from './invitation-projects.repository.ts';
import { emailedLinkBase } from '../../mail/links.ts';
import type { MailMessage } from '../../mail/mailer.ts';
import { sendOrLogFailure } from '../../mail/send.ts';
import type { Log } from '../../logger.ts';
import { invitationMail } from '../../mail/templates.ts';
import { type Client, normalEmail } from '../../identity/client.ts';
import { badLink, newLinkToken } from './links.ts';
import { personTarget, requireManager } from './people.service.ts';
import { type AuditActor, OPERATOR_ACTOR, recordAudit } from '../audit/record-audit.ts';
import { handleForNewAccount } from '../accounts/handles.service.ts';
import * as repo from './people.repository.ts';
import { signedInSession } from '../../identity/sign-in.service.ts';
import { recordMembershipChangedEvent } from '../projects/memberships.service.ts';
import { newEventId } from '../../events/record-event.ts';

/**
 * Invitations (docs/people.md, "Invitations"): an owner or admin (or the operator) invites an
 * address with a role; the link works once, until it expires, and creates the person with the
 * name and password they choose. The e-mail goes out after the invitation is committed.
 */

const alreadyMember = (email: string) =>
  new ApiError('ALREADY_EXISTS', `${email} already has an account in this organization.`, { field: 'email' });

/** A recorded invitation and the message that carries its link (sent by `mailInvitation`). */
export interface RecordedInvitation {
  invitation: Awaited<ReturnType<typeof repo.insertInvitation>> & {
    invited_by: { id: number; name: string } | null;
    url: string;
    projects: Array<{ key: string; name: string; role: ProjectRole }>;
  };
  /** Null when links cannot be e-mailed (no PUBLIC_BASE_URL). */
  mail: MailMessage | null;
}

/** A project an invitation names, and the role its person gets there. */
export interface InvitedProjectInput {
  project: string;
  role: ProjectRole;
}

export async function createInvitation(
  tx: Tx,
  principal: Principal,
  input: { email: string; role: WorkspaceRole; projects?: InvitedProjectInput[] },
  shownBase: string,
): Promise<RecordedInvitation> {
  requireManager(principal);
  authorize(principal, 'person.manage', { kind: 'person', roles: [input.role] });
  const projects = await invitedProjects(tx, principal, input.projects ?? []);
  const organization = { id: principal.organizationId, name: principal.organizationName };
  const inviter = { id: principal.userId, name: principal.userName };
  const recorded = await invite(tx, organization, inviter, input, shownBase, principal, projects);
  await insertInvitationProjects(
    tx.db,
    recorded.invitation.id,
    projects.map((p) => ({ project_id: p.id, role: p.role })),
  );
  recorded.invitation.projects = projects.map(({ key, name, role }) => ({ key, name, role }));
  if (projects.length && recorded.mail)
    recorded.mail.text += `\nYou will join ${projects.map((p) => `${p.name} (${p.key}) as ${p.role}`).join(', ')}.\n`;
  return recorded;
}

/**
 * The projects an invitation may name: each one only once, and only projects the inviter
 * administers (adding members is theirs to decide; an invisible project is a 404 like anywhere).
 */
async function invitedProjects(tx: Tx, principal: Principal, wanted: InvitedProjectInput[]) {
  const keys = wanted.map((p) => p.project);
  const twice = keys.find((key, i) => keys.indexOf(key) !== i);
  if (twice) throw invalid({ projects: `${twice} is named twice` });
  const projects = [];
  for (const { project, role } of wanted) {
    const found = await projectFor(tx.db, principal, { key: project }, 'project.administer', 'memberships');
    projects.push({ id: found.id, key: found.key, name: found.name, role });
  }
  return projects;
}

/**
 * The invitation itself, for the console and the operator CLI (no inviter). The answer shows
 * the link under `shownBase` to whoever invited; the e-mail's link is always under
 * PUBLIC_BASE_URL (emailedLinkBase), and without it no e-mail is prepared.
 */
export async function invite(
  tx: Tx,
  organization: { id: number; name: string },
  inviter: { id: number; name: string } | null,
  input: { email: string; role: WorkspaceRole },
  shownBase: string,
  by: Principal | AuditActor = OPERATOR_ACTOR,
  projects: Array<{ key: string; role: ProjectRole }> = [],
): Promise<RecordedInvitation> {
  const email = normalEmail(input.email);
  if (await repo.emailTakenIn(tx.db, organization.id, email)) throw alreadyMember(email);
  const token = newLinkToken();
  const row = await repo.insertInvitation(tx.db, {
    organization_id: organization.id,
    email,
    role: input.role,
    token_hash: hashToken(token),
    invited_by: inviter?.id ?? null,
    created_at: tx.clock.nowIso(),
    expires_at: isoFromMs(tx.clock.nowMs() + tx.config.links.invitationMs),
  });
  await recordAudit(tx, {
    organizationId: organization.id,
    actor: by,
    action: 'person.invited',
    target: { type: 'invitation', id: row.id, label: email },
    after: { email, role: input.role, projects: projects.map(({ key, role }) => ({ key, role })) },
  });
  const path = `/invite#token=${token}`;
  const mailBase = emailedLinkBase(tx);
  const mail = mailBase
    ? invitationMail(email, {
        inviter: inviter?.name ?? null,
        organization: organization.name,
        role: input.role,
        url: `${mailBase}${path}`,
        expires_at: row.expires_at,
      })
    : null;
  return {
    invitation: { ...row, invited_by: inviter, url: `${mailBase ?? shownBase}${path}`, projects: [] },
    mail,
  };
}

/** After the commit: e-mails the link when SMTP is configured; `emailed` says whether it went out, and the log why not. */
export async function mailInvitation(ctx: AppContext, log: Log, recorded: RecordedInvitation) {
  const emailed = recorded.mail
    ? (await sendOrLogFailure(ctx, log, recorded.mail, {
        message: 'could not e-mail an invitation',
        fields: { invitation_id: recorded.invitation.id },
      })) === null
    : false;
  return { ...recorded.invitation, emailed };
}

export async function listInvitations(ctx: AppContext, principal: Principal) {
  requireManager(principal);
  const rows = await repo.openInvitationsOf(ctx.db, principal.organizationId, ctx.clock.nowIso());
  const projects = await projectsOfInvitations(
    ctx.db,
    rows.map((row) => row.id),
  );
  return rows.map(({ inviter_id, inviter_name, ...row }) => ({
    ...row,
    invited_by: inviter_id === null ? null : { id: inviter_id, name: inviter_name ?? '' },
    projects: projects.filter((p) => p.invitation_id === row.id).map(({ key, name, role }) => ({ key, name, role })),
  }));
}

export async function revokeInvitation(tx: Tx, principal: Principal, id: number) {
  requireManager(principal);
  const revoked = await repo.revokeOpenInvitation(tx.db, principal.organizationId, id, tx.clock.nowIso());
  if (!revoked) throw notFound('Invitation');
  await recordAudit(tx, {
    organizationId: principal.organizationId,
    actor: principal,
    action: 'person.invitation_revoked',
    target: { type: 'invitation', id, label: revoked.email },
  });
}

/**
 * The invitation a token stands for while it acts: neither accepted, revoked nor expired, and
 * its inviter (unless the operator invited) still able to invite someone with its role.
 */
async function actingInvitation(db: Executor, token: string, now: string) {
  const row = await repo.findOpenInvitation(db, hashToken(token), now);
  if (!row) return undefined;
  return linkIssuerMayStillIssue(issuerAsNow(row.invited_by, row.issuer_role, row.issuer_active), row.role)
    ? row
    : undefined;
}

/**
 * The projects accepting the invitation adds its person to: those named that its inviter still
 * administers (the operator's invitations keep all of theirs).
 */
async function grantedProjects(
  db: Executor,
  invitation: {
    id: number;
    invited_by: number | null;
    issuer_role: WorkspaceRole | null;
    issuer_active: number | null;
  },
) {
  const issuer = issuerAsNow(invitation.invited_by, invitation.issuer_role, invitation.issuer_active);
  const named = await projectsOfInvitationWithIssuerRole(db, invitation.id, invitation.invited_by);
  return named.filter((project) => invitationIssuerMayStillGrant(issuer, project.project_id, project.issuer_role));
}

export async function lookupInvitation(ctx: AppContext, token: string) {
  const row = await foundOr404(
    actingInvitation(ctx.db, token, ctx.clock.nowIso()),
    'Invitation (the link may have been used or have expired)',
  );
  const projects = await grantedProjects(ctx.db, row);
  return {
    email: row.email,
    role: row.role,
    projects: projects.map(({ key, name, role }) => ({ key, name, role })),
    organization: { name: row.organization_name },
    expires_at: row.expires_at,
  };
}

/**
 * Before any password work: 400 unless the invitation link is open (acceptInvitation decides
 * again, atomically, in its unit of work).
 */
export async function assertInvitationLink(ctx: AppContext, token: string): Promise<void> {
  if (!(await actingInvitation(ctx.db, token, ctx.clock.nowIso()))) throw badLink('invitation');
}

/**
 * Creates the invited person with their name and password, and signs them in. The link works
 * once. `passwordHash` comes from `hashNewPassword`, before the unit of work.
 */
export async function acceptInvitation(
  tx: Tx,
  input: { token: string; name: string },
  passwordHash: string,
  client: Client,
) {
  const now = tx.clock.nowIso();
  const invitation = await actingInvitation(tx.db, input.token, now);
  if (!invitation) throw badLink('invitation');
  if (!(await repo.claimInvitation(tx.db, invitation.id, now))) throw badLink('invitation');
  const values = {
    organization_id: invitation.organization_id,
    kind: 'human' as const,
    name: input.name,
    email: invitation.email,
    role: invitation.role,
    created_at: now,
    password_hash: passwordHash,
    handle: await handleForNewAccount(tx, invitation.organization_id, {
      kind: 'human',
      name: input.name,
      email: invitation.email,
    }),
  };
  let user;
  try {
    // A failure ends the unit of work (its rollback), so no savepoint is needed.
    user = await repo.insertUser(tx.db, values);
  } catch (error) {
    if (isUniqueViolation(error)) throw alreadyMember(invitation.email);
    throw error;
  }
  await repo.setInvitationAccount(tx.db, invitation.id, user.id);
  const granted = await grantedProjects(tx.db, invitation);
  const membershipIds = await grantInvitationProjects(tx.db, user.id, granted, now);
  const origin = {
    organization: {
      id: invitation.organization_id,
      slug: invitation.organization_slug,
      name: invitation.organization_name,
    },
    actor: { id: user.id, email: invitation.email, name: user.name },
    source: 'app' as const,
    correlationId: client.requestId ?? newEventId(),
  };
  for (const [i, project] of granted.entries())
    await recordMembershipChangedEvent(
      tx,
      origin,
      {
        id: membershipIds[i]!,
        project: project.project_id,
        project_key: project.key,
        user: user.id,
        user_name: user.name,
      },
      'added',
      null,
      project.role,
    );
  const signedIn = await signedInSession(tx, user.id, client);
  await recordAudit(tx, {
    organizationId: invitation.organization_id,
    actor: { userId: user.id, label: user.name, tokenId: null, sessionId: signedIn.session.id, source: 'app' },
    action: 'person.joined',
    target: personTarget(user),
    after: { role: invitation.role, invitation: invitation.id },
    address: client.ip,
    correlationId: client.requestId,
  });
  return signedIn;
}
