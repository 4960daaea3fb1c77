import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import type { Principal } from '../../identity/principal.ts';
import { projectKeysOf, visibleProjectsWithRole } from './accounts.repository.ts';
import { handleOf } from './handles.repository.ts';
import { changeOwnHandle } from './handles.service.ts';
import type { MeJson } from './me.schemas.ts';

/** Who the caller is: account, organization, the token's effective scopes and restriction, visible projects. */
export async function describeMe(ctx: AppContext, principal: Principal): Promise<MeJson> {
  const projects = await visibleProjectsWithRole(ctx.db, principal);
  const restrictedKeys = principal.projectRestriction
    ? await projectKeysOf(ctx.db, principal.projectRestriction)
    : null;
  return {
    account: {
      id: principal.userId,
      name: principal.userName,
      handle: await handleOf(ctx.db, principal.userId),
      email: principal.userEmail,
      kind: principal.userKind,
      role: principal.role,
    },
    organization: { id: principal.organizationId, slug: principal.organizationSlug, name: principal.organizationName },
    token: principal.sessionId
      ? null
      : { id: principal.tokenId, scopes: principal.scopes, projects: restrictedKeys, expires_at: principal.expiresAt },
    projects,
  };
}

/** The caller's own account settings; today its handle. */
export async function updateMe(tx: Tx, principal: Principal, input: { handle: string }): Promise<MeJson> {
  await changeOwnHandle(tx, principal, input.handle);
  return describeMe(tx, principal);
}
