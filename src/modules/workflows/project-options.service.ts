import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { type PageRequest } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import type { Principal } from '../auth/principal.ts';
import { projectFor } from '../../policy/index.ts';

const DEFAULT_COLUMN = { priorities: 'default_priority_id', task_types: 'default_task_type_id' } as const;

/** The priorities or task types a project offers, in display order, flagging the default for new tasks. */
export async function listProjectOptions(
  ctx: AppContext,
  principal: Principal,
  projectKey: string,
  table: 'priorities' | 'task_types',
  page: PageRequest,
) {
  const project = await projectFor(ctx.db, principal, { key: projectKey });
  // Both tables have the same columns; typing the alias as one of them keeps the query builder typed.
  const from = `${table} as o` as 'priorities as o';
  const query = ctx.db
    .selectFrom(from)
    .innerJoin('projects as op', 'op.id', 'o.project_id')
    .where('o.project_id', '=', project.id)
    .select([
      'o.id',
      'o.name',
      'o.position',
      sql<number>`case when ${sql.ref(`op.${DEFAULT_COLUMN[table]}`)} = o.id then 1 else 0 end`.as('is_default'),
    ]);
  const { rows, pagination } = await paginate(query, page, {
    idColumn: 'o.id',
    orderable: { id: 'o.id', name: 'o.name', position: 'o.position' },
    defaultOrdering: 'position',
  });
  return { data: rows.map((row) => ({ ...row, is_default: Number(row.is_default) === 1 })), pagination };
}
