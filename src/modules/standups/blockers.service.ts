import type { AppContext } from '../../context.ts';
import { type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { teamBlockersPage } from './blockers.repository.ts';
import { teamToday } from './settings.service.ts';

/**
 * Everything currently declared blocking across the team, as far as the caller can see. Two
 * sources in one list:
 * - blockers in today's submitted entries of the caller's organization (a blocker about a task
 *   of a project the caller cannot see is left out);
 * - open tasks (status category not done) of visible projects that a `blocks` link ties to a
 *   blocking task that is not done either. When the blocking task is in a project the caller
 *   cannot see, the item still shows (the visible task is blocked) but not which task blocks it.
 */
export async function listBlockers(ctx: AppContext, principal: Principal, page: PageRequest) {
  const today = await teamToday(ctx, principal.organizationId);
  const { rows, pagination } = await teamBlockersPage(ctx.db, principal, today.date, page);
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
