import { isUniqueViolation } from '../../db/database.ts';
import { type Tx, withSavepoint } from '../../db/unit-of-work.ts';
import { ApiError, invalid } from '../../http/errors.ts';
import { lockOrganization } from '../people/people.repository.ts';
import type { Principal } from '../../identity/principal.ts';
import { handleBase, handleSource, HANDLE_MAX_LENGTH, isHandle, newHandle } from './handles.ts';
import * as repo from './handles.repository.ts';

/**
 * The handle for an account about to be created in the organization. Every handle write holds
 * the organization's row (PostgreSQL), so two accounts created at once cannot pick the same one.
 */
export async function handleForNewAccount(
  tx: Tx,
  organizationId: number,
  account: { kind: 'human' | 'service'; email: string | null; name: string },
): Promise<string> {
  await lockOrganization(tx.db, tx.dialect, organizationId);
  const base = handleBase(handleSource(account), account.kind === 'service' ? 'service' : 'user');
  // A numbered handle may be cut shorter than the base; the first few letters find every candidate.
  const taken = await repo.handlesStartingWith(tx.db, organizationId, base.slice(0, HANDLE_MAX_LENGTH - 10));
  return newHandle(account, taken);
}

/** The caller changes its own handle: 400 when it is not a valid handle, 409 when another account holds it. */
export async function changeOwnHandle(tx: Tx, principal: Principal, handle: string): Promise<void> {
  if (!isHandle(handle))
    throw invalid({
      handle: 'lowercase letters, digits, _ and -, starting with a letter or digit, at most 30 characters',
    });
  await lockOrganization(tx.db, tx.dialect, principal.organizationId);
  if ((await repo.handleOf(tx.db, principal.userId)) === handle) return;
  try {
    await withSavepoint(tx, () => repo.setHandle(tx.db, principal.userId, handle));
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('ALREADY_EXISTS', `The handle ${handle} is taken.`, { field: 'handle' });
    throw error;
  }
}
