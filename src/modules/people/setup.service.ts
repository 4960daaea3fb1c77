import { isoFromMs } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { invalid } from '../../http/errors.ts';
import { hashToken } from '../../identity/tokens.ts';
import { type Client, normalEmail } from '../../identity/client.ts';
import { badLink, newLinkToken } from './links.ts';
import { handleForNewAccount } from '../accounts/handles.service.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { personTarget } from './people.service.ts';
import * as repo from './people.repository.ts';
import { signedInSession } from '../../identity/sign-in.service.ts';

/** First run (docs/people.md, "The first person"): while no organization exists, a setup link creates it and its owner. */

export async function setupNeeded(ctx: AppContext): Promise<boolean> {
  return !(await repo.anyOrganizationExists(ctx.db));
}

/** When no organization exists: a new single-use setup link token (valid for a day), else null. */
export async function issueSetupToken(tx: Tx): Promise<{ token: string; expires_at: string } | null> {
  if (!(await setupNeeded(tx))) return null;
  const token = newLinkToken();
  const expiresAt = isoFromMs(tx.clock.nowMs() + tx.config.links.setupMs);
  await repo.insertSetupToken(tx.db, {
    token_hash: hashToken(token),
    created_at: tx.clock.nowIso(),
    expires_at: expiresAt,
  });
  return { token, expires_at: expiresAt };
}

/**
 * Before any password work: 400 unless the setup link is live and no organization exists yet
 * (completeSetup decides again, atomically, in its unit of work).
 */
export async function assertSetupLink(ctx: AppContext, token: string): Promise<void> {
  if (!(await setupNeeded(ctx)) || !(await repo.findLiveSetupToken(ctx.db, hashToken(token), ctx.clock.nowIso())))
    throw badLink('setup');
}

/**
 * Creates the organization and its owner with the setup token, and signs the owner in. Using
 * one token burns every setup token, in the transaction that creates the organization, so two
 * racing browsers (or two tokens from two processes) cannot both succeed. `passwordHash` comes
 * from `hashNewPassword`, before the unit of work.
 */
export async function completeSetup(
  tx: Tx,
  input: { token: string; organization: { name: string; slug: string }; name: string; email: string },
  passwordHash: string,
  client: Client,
) {
  if (!/^[a-z0-9][a-z0-9-]{0,62}$/.test(input.organization.slug))
    throw invalid({ 'organization.slug': 'lowercase letters, digits and dashes, at most 63' });
  const now = tx.clock.nowIso();
  if (!(await repo.useSetupToken(tx.db, hashToken(input.token), now))) throw badLink('setup');
  await repo.burnSetupTokens(tx.db, now);
  if (await repo.anyOrganizationExists(tx.db)) throw badLink('setup');
  const organizationId = await repo.insertOrganization(tx.db, {
    name: input.organization.name,
    slug: input.organization.slug,
    created_at: now,
  });
  const account = { kind: 'human' as const, name: input.name, email: normalEmail(input.email) };
  const owner = await repo.insertUser(tx.db, {
    organization_id: organizationId,
    ...account,
    handle: await handleForNewAccount(tx, organizationId, account),
    role: 'owner',
    created_at: now,
    password_hash: passwordHash,
  });
  const signedIn = await signedInSession(tx, owner.id, client);
  await recordAudit(tx, {
    organizationId,
    actor: { userId: owner.id, label: owner.name, tokenId: null, sessionId: signedIn.session.id, source: 'app' },
    action: 'person.joined',
    target: personTarget(owner),
    after: { role: 'owner', setup: true },
    address: client.ip,
    correlationId: client.requestId,
  });
  return signedIn;
}
