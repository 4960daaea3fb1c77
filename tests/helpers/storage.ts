import type { Db } from '../../src/db/database.ts';
import type { Database } from '../../src/db/schema.ts';
import type { TestHarness } from './harness.ts';

/**
 * Reads and writes of stored rows for tests about storage itself: what a refused request left
 * behind, what is kept at rest, and how the app copes with rows changed by any hand (the auth
 * epoch's triggers) or left by a crashed request. Everything else goes through the factory.
 */

/** How many rows a table holds: for checks that a refused request wrote nothing. */
export async function rowCount(h: TestHarness, table: keyof Database): Promise<number> {
  const row = await h.ctx.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes an account's project memberships (of one project, or all) straight in the table, as another hand would. */
export async function deleteMembershipRows(h: TestHarness, accountId: number, projectId?: number): Promise<void> {
  let query = h.ctx.db.deleteFrom('project_memberships').where('user_id', '=', accountId);
  if (projectId !== undefined) query = query.where('project_id', '=', projectId);
  await query.execute();
}

/** Attachment rows, oldest first: whether a row is left for a stored file. */
export function attachmentRows(h: TestHarness) {
  return h.ctx.db.selectFrom('attachments').selectAll().orderBy('id').execute();
}

/** The idempotency records of one key (of one token when given); `db` reads past a test's own connection plugins. */
export function idempotencyRecords(h: TestHarness, key: string, options: { tokenId?: number; db?: Db } = {}) {
  let query = (options.db ?? h.ctx.db).selectFrom('idempotency_keys').selectAll().where('key', '=', key);
  if (options.tokenId !== undefined) query = query.where('token_id', '=', options.tokenId);
  return query.execute();
}

/** What the idempotency record of one key stored as the response. */
export function storedResponse(h: TestHarness, key: string, options: { tokenId?: number; db?: Db } = {}) {
  let query = (options.db ?? h.ctx.db)
    .selectFrom('idempotency_keys')
    .select(['state', 'response_status', 'response_body'])
    .where('key', '=', key);
  if (options.tokenId !== undefined) query = query.where('token_id', '=', options.tokenId);
  return query.executeTakeFirstOrThrow();
}

/** A claim left in flight by a request that died, with the lease ending at `leaseExpiresAt`. */
export async function forgeInFlightClaim(
  h: TestHarness,
  claim: { tokenId: number; key: string; requestHash: string; leaseExpiresAt: string; createdAt: string },
  db: Db = h.ctx.db,
): Promise<void> {
  await db
    .insertInto('idempotency_keys')
    .values({
      token_id: claim.tokenId,
      key: claim.key,
      request_hash: claim.requestHash,
      state: 'in_flight',
      response_status: null,
      response_body: null,
      lease_expires_at: claim.leaseExpiresAt,
      created_at: claim.createdAt,
    })
    .execute();
}

/** Custom field values as stored (option ids, JSON), of the given fields, by field; for API tests and service tests alike. */
export function customValueRows(h: Pick<TestHarness, 'ctx'>, fieldIds: number[]) {
  return h.ctx.db
    .selectFrom('task_custom_values')
    .select(['id', 'field_id', 'value'])
    .where('field_id', 'in', fieldIds)
    .orderBy('field_id')
    .orderBy('id')
    .execute();
}

/** Task link rows as stored: one per relationship, whichever end it was asked from. */
export function linkRows(h: TestHarness) {
  return h.ctx.db.selectFrom('task_links').selectAll().orderBy('id').execute();
}

/** Secrets the installation keeps in its database (the webhook key when none is configured). */
export function installationSecrets(h: TestHarness) {
  return h.ctx.db.selectFrom('installation_secrets').selectAll().execute();
}
