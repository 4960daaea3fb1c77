import type { AppContext } from '../context.ts';
import { inTransaction, type Tx } from '../db/unit-of-work.ts';
import { notFound } from '../http/errors.ts';
import { type AuditActor, OPERATOR_ACTOR, recordAudit } from '../modules/audit/record-audit.ts';
import { issueToken } from './issue-token.ts';
import type { Principal } from './principal.ts';
import { can, WORKSPACE } from '../policy/index.ts';
import * as repo from './tokens.repository.ts';

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

/** A token created by the operator (the command line): see issueToken. */
export async function createToken(
  ctx: AppContext,
  input: { accountId: number; scopes: string[]; projectKeys?: string[]; expiresInHours?: number; name?: string },
) {
  return inTransaction(ctx, (tx) =>
    issueToken(tx, 'operator', {
      account: input.accountId,
      scopes: input.scopes,
      projects: input.projectKeys,
      expiresInHours: input.expiresInHours,
      name: input.name,
    }),
  );
}

/** Revokes a token: by the operator (the command line), or by `by` in the console. */
export async function revokeToken(ctx: AppContext, tokenId: number, by: Principal | AuditActor = OPERATOR_ACTOR) {
  return inTransaction(ctx, async (tx) => {
    const now = tx.clock.nowIso();
    if (await repo.revokeToken(tx.db, tokenId, now)) {
      const token = await repo.findTokenForAudit(tx.db, tokenId);
      if (token) {
        await recordAudit(tx, {
          organizationId: token.organization_id,
          actor: by,
          action: 'token.revoked',
          target: { type: 'token', id: token.id, label: token.name || token.token_prefix },
          before: { account: { id: token.account_id, name: token.account_name } },
        });
      }
      return { id: tokenId, revoked_at: now };
    }
    const exists = await repo.findTokenRevocation(tx.db, tokenId);
    if (!exists) throw notFound(`Token ${tokenId}`);
    return { id: tokenId, revoked_at: exists.revoked_at };
  });
}
