import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import type { PageRequest } from '../../http/pagination.ts';

export type OptionTable = 'priorities' | 'task_types';

const DEFAULT_COLUMN = { priorities: 'default_priority_id', task_types: 'default_task_type_id' } as const;

/** The priorities or task types of a project, flagging the default for new tasks. */
/** One page of the priorities or task types a project offers, flagging the default for new tasks. */
export function optionsPage(db: Executor, table: OptionTable, projectId: number, page: PageRequest) {
  return paginate(optionsOfProject(db, table, projectId), page, {
    idColumn: 'o.id',
    orderable: { id: 'o.id', name: 'o.name', position: 'o.position' },
    defaultOrdering: 'position',
  });
}

function optionsOfProject(db: Executor, table: OptionTable, projectId: number) {
  // Both tables have the same columns; typing the alias as one of them keeps the query builder typed.
  const from = `${table} as o` as 'priorities as o';
  return db
    .selectFrom(from)
    .innerJoin('projects as op', 'op.id', 'o.project_id')
    .where('o.project_id', '=', projectId)
    .select([
      'o.id',
      'o.name',
      'o.position',
      sql<number>`case when ${sql.ref(`op.${DEFAULT_COLUMN[table]}`)} = o.id then 1 else 0 end`.as('is_default'),
    ]);
}

export async function insertOption(
  db: Executor,
  table: OptionTable,
  values: { project_id: number; name: string; position: number },
): Promise<number> {
  const row = await db.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Points a new project at its workflow and at what new tasks get when none is given. */
export async function setProjectDefaults(
  db: Executor,
  projectId: number,
  defaults: {
    workflow_id: number;
    default_status_id: number;
    default_task_type_id: number;
    default_priority_id: number;
  },
): Promise<void> {
  await db.updateTable('projects').set(defaults).where('id', '=', projectId).execute();
}
