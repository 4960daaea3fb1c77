import type { Executor } from '../db/database.ts';

/**
 * Stores `value` under `name` unless a value is there already (several processes may race to
 * create it: the first insert wins), and returns the value that is stored.
 */
export async function ensureInstallationSecret(db: Executor, name: string, value: string, at: string): Promise<string> {
  await db
    .insertInto('installation_secrets')
    .values({ name, value, created_at: at })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('installation_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return row.value;
}
