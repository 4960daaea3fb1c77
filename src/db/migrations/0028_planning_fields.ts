import type { MigrationContext } from './helpers.ts';

/**
 * Planning in time (docs/api/planning.md): a task's start date and estimate, and the unit a
 * project's estimates are in. Existing tasks get neither; reports count an estimate from when it
 * was set (its activity row).
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await db.schema.alterTable('tasks').addColumn('start_date', 'text').execute();
  await db.schema
    .alterTable('tasks')
    .addColumn('estimate', dialect === 'postgres' ? 'double precision' : 'real')
    .execute();
  await db.schema
    .alterTable('projects')
    .addColumn('estimate_unit', 'text', (c) => c.notNull().defaultTo('points'))
    .execute();
}
