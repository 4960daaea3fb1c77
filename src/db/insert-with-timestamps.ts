import type { Generated, Insertable } from 'kysely';
import type { Executor } from './database.ts';
import type { Database } from './schema.ts';

interface Timestamps {
  created_at: string;
  updated_at: string;
}

/** Tables whose rows have a generated integer id and both timestamps. */
type TimestampedTable = {
  [T in keyof Database]: Database[T] extends Timestamps & { id: Generated<number> } ? T : never;
}[keyof Database];

/** Inserts a row created and last updated at `at`, returning its id. */
export async function insertWithTimestamps<T extends TimestampedTable>(
  db: Executor,
  table: T,
  values: Omit<Insertable<Database[T]>, keyof Timestamps>,
  at: string,
): Promise<number> {
  // Kysely cannot list the columns of a generic table, so the query is built on the union of
  // timestamped tables, which types the id and timestamps they share; the signature above
  // checks `values` against the caller's own table.
  const into: TimestampedTable = table;
  const row = await db
    .insertInto(into)
    .values({ ...values, created_at: at, updated_at: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
