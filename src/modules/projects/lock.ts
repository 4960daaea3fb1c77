import type { Dialect, Trx } from '../../db/database.ts';

/**
 * Serializes changes to one project's configuration (status order, active workflow) for the
 * rest of the transaction. PostgreSQL takes a row lock on the project; NO KEY UPDATE so that
 * inserting tasks (whose foreign key only needs KEY SHARE on the project) is not held up.
 * SQLite needs nothing: Kysely runs every query of the process over its one connection, so a
 * transaction there is already exclusive.
 */
export async function lockProject(trx: Trx, dialect: Dialect, projectId: number): Promise<void> {
  if (dialect !== 'postgres') return;
  await trx.selectFrom('projects').select('id').where('id', '=', projectId).forNoKeyUpdate().execute();
}
