import { sql } from 'kysely';
import type { AppContext } from '../../context.ts';
import { type PageRequest } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import type { Principal } from '../auth/principal.ts';
import { visibleProjectIds } from '../../policy/index.ts';
import { teamToday } from './settings.service.ts';

/**
 * Spec 4.4 rule 3: everything currently declared blocking across the team, as far as the
 * caller can see. Two sources in one list:
 * - blockers in today's submitted entries of the caller's organization (a blocker about a task
 *   of a project the caller cannot see is left out);
 * - open tasks (status category not done) of visible projects that a `blocks` link ties to a
 *   blocking task that is not done either. When the blocking task is in a project the caller
 *   cannot see, the item still shows (the visible task is blocked) but not which task blocks it.
 *
 * One UNION query, so the list pages like every other. Its row id interleaves the two sources
 * (even: entry blocker, odd: link) so cursor mode has a stable unique key to walk.
 */
export async function listBlockers(ctx: AppContext, principal: Principal, page: PageRequest) {
  const db = ctx.db;
  const today = await teamToday(ctx, principal.organizationId);

  const declared = db
    .selectFrom('standup_blockers as b')
    .innerJoin('standup_entries as e', 'e.id', 'b.entry_id')
    .where('e.organization_id', '=', principal.organizationId)
    .where('e.date', '=', today.date)
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

  const query = db.selectFrom(declared.unionAll(linked).as('x')).selectAll('x');
  const { rows, pagination } = await paginate(query, page, {
    idColumn: 'x.id',
    orderable: { since: 'x.since', declared_by: 'x.declared_by' },
    // Oldest first: what has blocked people longest leads.
    defaultOrdering: 'since',
  });
  return {
    data: rows.map((r) => ({
      source: r.source,
      text:
        r.source === 'standup'
          ? r.text!
          : r.blocked_by
            ? `Blocked by ${r.blocked_by} ${r.blocked_by_title}`
            : 'Blocked by a task in a project you cannot see',
      task: r.task,
      blocked_by: r.blocked_by,
      declared_by: r.declared_by,
      since: r.since,
      entry: r.entry,
      link: r.link,
    })),
    pagination,
  };
}
