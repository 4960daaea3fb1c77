import type { Executor } from '../db/database.ts';
import type { IdempotencyKeysTable } from '../db/schema.ts';
import type { Selectable } from 'kysely';

export type IdempotencyRecord = Selectable<IdempotencyKeysTable>;

/** Keys are scoped to the credential: an API token, or a signed-in person's session. */
export type KeyOwner = { token_id: number } | { session_id: number };

export async function insertClaim(
  db: Executor,
  claim: KeyOwner & { key: string; request_hash: string; lease_expires_at: string; created_at: string },
): Promise<number> {
  const row = await db
    .insertInto('idempotency_keys')
    .values({ ...claim, state: 'in_flight', response_status: null, response_body: null, grants: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export function findByKey(db: Executor, owner: KeyOwner, key: string): Promise<IdempotencyRecord | undefined> {
  const query = db.selectFrom('idempotency_keys').selectAll().where('key', '=', key);
  return (
    'session_id' in owner
      ? query.where('session_id', '=', owner.session_id)
      : query.where('token_id', '=', owner.token_id)
  ).executeTakeFirst();
}

/** Compare-and-swap takeover of an expired or abandoned record: succeeds for exactly one caller. */
export async function takeOver(
  db: Executor,
  previous: IdempotencyRecord,
  claim: { request_hash: string; lease_expires_at: string; created_at: string },
): Promise<boolean> {
  const result = await db
    .updateTable('idempotency_keys')
    .set({ ...claim, state: 'in_flight', response_status: null, response_body: null, grants: null })
    .where('id', '=', previous.id)
    .where('state', '=', previous.state)
    .where('created_at', '=', previous.created_at)
    .where('lease_expires_at', '=', previous.lease_expires_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function complete(db: Executor, id: number, status: number, body: string, grants: string): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({ state: 'complete', response_status: status, response_body: body, grants })
    .where('id', '=', id)
    .execute();
}

export async function release(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('idempotency_keys').where('id', '=', id).execute();
}

export async function purgeCreatedBefore(db: Executor, cutoff: string): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('created_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
