import { sql } from 'kysely';
import type { Executor } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleProjectIds } from '../../policy/index.ts';

/**
 * Everything declared blocking on `date` across the caller's organization, as far as the caller
 * can see, in one UNION query so the list pages like every other: blockers of that day's
 * submitted entries, and open tasks blocked (`blocks` link) by a task that is not done. The row
 * id interleaves the two sources (even: entry blocker, odd: link) so cursor mode has a stable
 * unique key to walk.
 */
/** One page of what blocks the team on `date`, oldest first by default: what has blocked people longest leads. */
export function teamBlockersPage(db: Executor, principal: Principal, date: string, page: PageRequest) {
  return paginate(teamBlockers(db, principal, date), page, {
    idColumn: 'x.id',
    orderable: { since: 'x.since', declared_by: 'x.declared_by' },
    defaultOrdering: 'since',
  });
}

function teamBlockers(db: Executor, principal: Principal, date: string) {
  const declared = db
    .selectFrom('standup_blockers as b')
    .innerJoin('standup_entries as e', 'e.id', 'b.entry_id')
    .where('e.organization_id', '=', principal.organizationId)
    .where('e.date', '=', date)
    .where('e.state', '=', 'submitted')
    .where((eb) => eb.or([eb('b.project_id', 'is', null), eb('b.project_id', 'in', visibleProjectIds(db, principal))]))
    .select([
      sql<number>`2 * b.id`.as('id'),
      sql<'standup' | 'link'>`'standup'`.as('source'),
      sql<string | null>`b.text`.as('text'),
      sql<string | null>`b.task_key`.as('task'),
      sql<string | null>`cast(null as text)`.as('blocked_by'),
      sql<string | null>`cast(null as text)`.as('blocked_by_title'),
      sql<number | null>`e.user_id`.as('declared_by'),
      sql<string>`b.since`.as('since'),
      sql<number | null>`e.id`.as('entry'),
      sql<number | null>`cast(null as integer)`.as('link'),
    ]);

  const linked = db
    .selectFrom('task_links as l')
    .innerJoin('tasks as bt', 'bt.id', 'l.to_task_id')
    .innerJoin('statuses as bs', 'bs.id', 'bt.status_id')
    .innerJoin('tasks as kt', 'kt.id', 'l.from_task_id')
    .innerJoin('statuses as ks', 'ks.id', 'kt.status_id')
    .where('l.type', '=', 'blocks')
    .where('bs.category', '!=', 'done')
    .where('ks.category', '!=', 'done')
    .where('bt.project_id', 'in', visibleProjectIds(db, principal))
    .select((eb) => {
      const blockerVisible = eb('kt.project_id', 'in', visibleProjectIds(db, principal));
      return [
        sql<number>`2 * l.id + 1`.as('id'),
        sql<'standup' | 'link'>`'link'`.as('source'),
        sql<string | null>`cast(null as text)`.as('text'),
        sql<string | null>`bt.key`.as('task'),
        eb.case().when(blockerVisible).then(eb.ref('kt.key')).else(null).end().as('blocked_by'),
        eb.case().when(blockerVisible).then(eb.ref('kt.title')).else(null).end().as('blocked_by_title'),
        sql<number | null>`l.created_by`.as('declared_by'),
        sql<string>`l.created_at`.as('since'),
        sql<number | null>`cast(null as integer)`.as('entry'),
        sql<number | null>`l.id`.as('link'),
      ];
    });

  return db.selectFrom(declared.unionAll(linked).as('x')).selectAll('x');
}
