import { isoFromMs } from '../clock.ts';
import type { Tx } from '../db/unit-of-work.ts';
import { invalid, notFound } from '../http/errors.ts';
import { OPERATOR_ACTOR, recordAudit } from '../modules/audit/record-audit.ts';
import { issuableAccount, visibleProjectsOf } from '../policy/index.ts';
import type { Principal } from './principal.ts';
import { findAccount, insertToken, projectsByKeys } from './token-issuance.repository.ts';
import { isScope } from './scopes.ts';
import { displayPrefix, generateToken, hashToken } from './tokens.ts';

/** Who creates a token: a signed-in person (the console), or the operator at the command line. */
export type TokenIssuer = Principal | 'operator';

export interface TokenRequest {
  /** The account the token acts as. */
  account: number;
  scopes: string[];
  /** Project keys the token is restricted to; absent for no restriction. */
  projects?: string[];
  expiresInHours?: number;
  name?: string;
}

/**
 * Creates an API token (shown once, stored as its SHA-256) acting as exactly one account. A
 * person issues tokens for themselves, or, when the policy allows, for a service account; the
 * token records them and acts only while they could still issue it (src/identity/
 * auth.service.ts). The operator issues any account of any organization a token. Project keys
 * are looked up among the projects the issuer sees, so a key the issuer cannot see answers
 * exactly as one that does not exist.
 */
export async function issueToken(tx: Tx, issuer: TokenIssuer, input: TokenRequest) {
  const account =
    issuer === 'operator'
      ? await findAccount(tx.db, input.account)
      : await issuableAccount(tx.db, issuer, input.account);
  if (!account) throw notFound(`Account ${input.account}`);
  if (account.active !== 1) throw invalid({ account: 'the account is deactivated' });
  const unknown = input.scopes.filter((s) => !isScope(s));
  if (unknown.length || input.scopes.length === 0)
    throw invalid({ scopes: `unknown or empty: ${unknown.join(', ') || '(none)'}` });
  const projectIds = input.projects ? await projectIdsOf(tx, issuer, account.organization_id, input.projects) : null;

  const token = generateToken();
  const scopes = [...new Set(input.scopes)];
  const expiresAt =
    input.expiresInHours !== undefined ? isoFromMs(tx.clock.nowMs() + input.expiresInHours * 3_600_000) : null;
  const id = await insertToken(tx.db, {
    user_id: account.id,
    token_hash: hashToken(token),
    token_prefix: displayPrefix(token),
    scopes: JSON.stringify(scopes),
    project_ids: projectIds === null ? null : JSON.stringify(projectIds),
    expires_at: expiresAt,
    revoked_at: null,
    created_at: tx.clock.nowIso(),
    name: input.name ?? '',
    created_by: issuer === 'operator' ? null : issuer.userId,
  });
  await recordAudit(tx, {
    organizationId: account.organization_id,
    actor: issuer === 'operator' ? OPERATOR_ACTOR : issuer,
    action: 'token.created',
    target: { type: 'token', id, label: input.name || displayPrefix(token) },
    after: {
      account: { id: account.id, name: account.name },
      scopes,
      projects: input.projects ?? null,
      expires_at: expiresAt,
    },
  });
  return { id, name: input.name ?? '', token, scopes, projects: input.projects ?? null, expires_at: expiresAt };
}

/** Ids of the projects named by `keys` that the issuer sees; 400 naming the others, seen or not. */
async function projectIdsOf(tx: Tx, issuer: TokenIssuer, organizationId: number, keys: string[]): Promise<number[]> {
  const found = new Map<string, number>();
  if (issuer === 'operator') {
    for (const row of await projectsByKeys(tx.db, organizationId, keys)) found.set(row.key, row.id);
  } else {
    const visible = await visibleProjectsOf(tx.db, issuer);
    for (const key of keys) {
      const project = visible.byKey.get(key);
      if (project) found.set(key, project.id);
    }
  }
  const missing = keys.filter((key) => !found.has(key));
  if (missing.length) throw invalid({ projects: `unknown project keys: ${missing.join(', ')}` });
  return [...new Set(found.values())];
}
