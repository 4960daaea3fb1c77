import type { Executor } from '../../db/database.ts';

/** Handles of the organization that start with `prefix` (a superset: `_` matches any character). */
export async function handlesStartingWith(db: Executor, organizationId: number, prefix: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('users')
    .select('handle')
    .where('organization_id', '=', organizationId)
    .where('handle', 'like', `${prefix}%`)
    .execute();
  return new Set(rows.map((r) => r.handle));
}

export async function handleOf(db: Executor, userId: number): Promise<string> {
  const row = await db.selectFrom('users').select('handle').where('id', '=', userId).executeTakeFirstOrThrow();
  return row.handle;
}

export async function setHandle(db: Executor, userId: number, handle: string): Promise<void> {
  await db.updateTable('users').set({ handle }).where('id', '=', userId).execute();
}
