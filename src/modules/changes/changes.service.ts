import type { AppContext } from '../../context.ts';
import { pageRequest } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import type { Principal } from '../auth/principal.ts';
import { changesVisibleTo } from './changes.repository.ts';
import { parseSince } from './since.ts';

/**
 * One page of the changes feed (docs/api/changes-feed.md; docs/domain/tasks.md), as the
 * finished response body. The feed is read far more than anything else by sync clients, so the stored task
 * snapshots go out as stored.
 */
export async function readChanges(
  ctx: AppContext,
  principal: Principal,
  params: { since?: string; cursor: string; limit?: number },
) {
  const since = parseSince(params.since);
  const page = pageRequest({ cursor: params.cursor, limit: params.limit });
  const { rows, pagination } = await paginate(changesVisibleTo(ctx.db, principal, since), page, {
    idColumn: 'c.id',
    orderable: {},
  });
  const changes = rows.map((row) => {
    const head = `{"id":${row.id},"action":${JSON.stringify(row.action)},"key":${JSON.stringify(row.task_key)},"changed_at":${JSON.stringify(row.changed_at)}`;
    return row.task === null ? `${head}}` : `${head},"task":${row.task}}`;
  });
  const body = `{"success":true,"data":{"changes":[${changes.join(',')}],"since":${JSON.stringify(since)}},"pagination":${JSON.stringify(pagination)}}`;
  return { since, body };
}
