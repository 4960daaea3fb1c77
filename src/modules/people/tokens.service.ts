import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { notFound } from '../../http/errors.ts';
import { revokeToken } from '../accounts/accounts.service.ts';
import { issueToken } from '../../identity/issue-token.ts';
import type { Principal } from '../../identity/principal.ts';
import { can, WORKSPACE } from '../../policy/index.ts';
import * as repo from './people.repository.ts';

/** API tokens in the console: owners and admins see and manage every token of the organization; anyone else their own account's. */

async function presentTokens(ctx: AppContext, rows: Awaited<ReturnType<typeof repo.liveTokens>>) {
  const projectIds = [...new Set(rows.flatMap((r) => (r.project_ids ? (JSON.parse(r.project_ids) as number[]) : [])))];
  const keys = new Map(
    projectIds.length ? (await repo.projectKeysOf(ctx.db, projectIds)).map((p) => [p.id, p.key]) : [],
  );
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    account: { id: r.account_id, name: r.account_name },
    scopes: JSON.parse(r.scopes) as string[],
    projects:
      r.project_ids === null
        ? null
        : (JSON.parse(r.project_ids) as number[]).flatMap((id) => (keys.has(id) ? [keys.get(id)!] : [])).sort(),
    created_at: r.created_at,
    expires_at: r.expires_at,
    last_used_at: r.last_used_at ?? null,
  }));
}

export async function listTokens(ctx: AppContext, principal: Principal) {
  const accountId = can(principal, 'people.manage', WORKSPACE) ? undefined : principal.userId;
  return presentTokens(ctx, await repo.liveTokens(ctx.db, { organizationId: principal.organizationId, accountId }));
}

/** Live (unrevoked) tokens for the operator CLI, optionally of one organization or account. */
export async function listTokensFor(ctx: AppContext, filter: { organizationId?: number; accountId?: number }) {
  return presentTokens(ctx, await repo.liveTokens(ctx.db, filter));
}

export async function createConsoleToken(
  tx: Tx,
  principal: Principal,
  input: { name: string; account: number; scopes: string[]; projects?: string[]; expires_in_hours?: number },
) {
  const created = await issueToken(tx, principal, {
    account: input.account,
    scopes: input.scopes,
    projects: input.projects,
    expiresInHours: input.expires_in_hours,
    name: input.name,
  });
  const [record] = (await listTokens(tx, principal)).filter((t) => t.id === created.id);
  return { ...record!, token: created.token };
}

export async function revokeConsoleToken(tx: Tx, principal: Principal, id: number) {
  const row = await repo.findLiveTokenIn(tx.db, principal.organizationId, id);
  if (!row || (row.account_id !== principal.userId && !can(principal, 'people.manage', WORKSPACE)))
    throw notFound('Token');
  await revokeToken(tx, id, principal);
}
