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

/**
 * As lockProject, and on SQLite takes the database's write lock at once (a write that changes
 * nothing): a transaction in another process then waits here, instead of deciding from a
 * snapshot it could no longer write over. For decisions that read before they write, such as
 * "a project keeps one admin".
 */
export async function lockProjectForDecision(trx: Trx, dialect: Dialect, projectId: number): Promise<void> {
  if (dialect === 'postgres') return lockProject(trx, dialect, projectId);
  await trx.updateTable('projects').set((eb) => ({ id: eb.ref('id') })).where('id', '=', projectId).execute();
}
