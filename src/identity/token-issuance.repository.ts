import type { Insertable } from 'kysely';
import type { Executor } from '../db/database.ts';
import type { ApiTokensTable } from '../db/schema.ts';

/** What issuing a token reads and writes: the account it acts as, project keys, the token row. */

export function findAccount(db: Executor, id: number) {
  return db
    .selectFrom('users')
    .select(['id', 'organization_id', 'kind', 'role', 'active', 'name', 'email'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The organization's projects among `keys`. */
export function projectsByKeys(db: Executor, organizationId: number, keys: string[]) {
  return db
    .selectFrom('projects')
    .select(['id', 'key'])
    .where('organization_id', '=', organizationId)
    .where('key', 'in', keys.length ? keys : [''])
    .execute();
}

export async function insertToken(db: Executor, values: Insertable<ApiTokensTable>): Promise<number> {
  const row = await db.insertInto('api_tokens').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}
