import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import {
  type CursorPagination,
  cursorField,
  decodeCursor,
  encodeCursor,
  type PageRequest,
  pageRequest,
} from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleProjectsOf } from '../../policy/index.ts';
import { checkQuery, matchStates, timeZoneParameter } from '../query/query.service.ts';
import { changeStatesPage, changesFeedHorizon, changesPage } from './changes.repository.ts';
import { taskStatesOf } from './task-states.ts';
import { parseSince } from './since.ts';

/**
 * One page of the changes feed (docs/api/changes-feed.md; docs/domain/tasks.md), as the
 * finished response body. The feed is read far more than anything else by sync clients, so the stored task
 * snapshots go out as stored.
 *
 * Retention may remove deletion records (src/worker/retention.ts). A walk carries, in its
 * cursor, the generation of the feed's horizon it began in; the horizon is read after the page,
 * so removals committed before the page was read are always seen, and a walk that may have
 * lost a deletion record is refused instead of ending with a silent gap.
 */
export async function readChanges(
  ctx: AppContext,
  principal: Principal,
  params: { since?: string; cursor: string; limit?: number; q?: string; tz?: string },
) {
  const since = parseSince(params.since);
  const page = pageRequest({ cursor: params.cursor, limit: params.limit }) as CursorPageRequest;
  const walkGeneration =
    params.cursor === '' ? (await changesFeedHorizon(ctx.db)).generation : (cursorField(params.cursor, 'g') ?? 0);
  const { changes, pagination } =
    params.q === undefined
      ? await allChanges(ctx, principal, since, page)
      : await matchingChanges(ctx, principal, since, page, { q: params.q, tz: params.tz });
  const horizon = await changesFeedHorizon(ctx.db);
  if (
    horizon.generation !== walkGeneration ||
    (since !== null && horizon.purgedBefore !== null && since < horizon.purgedBefore)
  ) {
    throw new ApiError(
      'RESYNC_REQUIRED',
      'Retention removed changes this walk needs: drop your copy and walk the feed again from the start, without since.',
      { purged_before: horizon.purgedBefore },
    );
  }
  const cursor = pagination as CursorPagination;
  const next = { ...cursor, next_cursor: encodeCursor(decodeCursor(cursor.next_cursor), { g: walkGeneration }) };
  const body = `{"success":true,"data":{"changes":[${changes.join(',')}],"since":${JSON.stringify(since)}},"pagination":${JSON.stringify(next)}}`;
  return { since, body };
}

type CursorPageRequest = Extract<PageRequest, { mode: 'cursor' }>;

interface ChangeRow {
  id: number;
  action: string;
  task_key: string;
  task: string | null;
  changed_at: string;
}

/** A change as JSON text: the stored task snapshot is spliced in as stored. */
function changeJson(row: ChangeRow, action = row.action): string {
  const head = `{"id":${row.id},"action":${JSON.stringify(action)},"key":${JSON.stringify(row.task_key)},"changed_at":${JSON.stringify(row.changed_at)}`;
  return row.task === null || action === 'left' ? `${head}}` : `${head},"task":${row.task}}`;
}

async function allChanges(ctx: AppContext, principal: Principal, since: string | null, page: CursorPageRequest) {
  const { rows, pagination } = await changesPage(ctx.db, principal, since, page);
  return { changes: rows.map((row) => changeJson(row)), pagination };
}

/** Change records a filtered page examines at most, so a query few tasks match never holds a request long. */
const SCANNED_PER_PAGE = 1000;
const SCAN_BATCH = 200;

/**
 * The changes of tasks matching `q` (docs/api/changes-feed.md, "Filtered"): a created or
 * updated task that matches right after the change is sent as it is; one that matched right
 * before and no longer does is sent once as `left` (key and time only); a deletion is sent when
 * the task matched right before it. Both states come from the change record itself
 * (task-states.ts). A page holds at most `limit` changes but may hold fewer, even none, with
 * `has_more` true: it examines at most SCANNED_PER_PAGE records.
 */
async function matchingChanges(
  ctx: AppContext,
  principal: Principal,
  since: string | null,
  page: CursorPageRequest,
  parameters: { q: string; tz?: string },
) {
  const query = checkQuery(parameters.q);
  const scope = {
    accountId: principal.userId,
    organizationId: principal.organizationId,
    projects: [...(await visibleProjectsOf(ctx.db, principal)).byId.values()].map((p) => ({ id: p.id, key: p.key })),
    timeZone: timeZoneParameter(parameters.tz),
  };
  const changes: string[] = [];
  let afterId = page.afterId;
  let hasMore = true;
  for (let scanned = 0; scanned < SCANNED_PER_PAGE && changes.length < page.limit;) {
    const { rows, pagination } = await changeStatesPage(ctx.db, principal, since, {
      mode: 'cursor',
      afterId,
      limit: SCAN_BATCH,
    });
    const verdicts = await matchStates(ctx, ctx.db, query, scope, rows.map(taskStatesOf));
    for (const [i, row] of rows.entries()) {
      const { before, after } = verdicts[i]!;
      if (row.action === 'deleted' ? before : after) changes.push(changeJson(row));
      else if (before) changes.push(changeJson(row, 'left'));
      afterId = row.id;
      scanned += 1;
      if (changes.length === page.limit) break;
    }
    if (afterId === rows.at(-1)?.id && !(pagination as CursorPagination).has_more) {
      hasMore = false;
      break;
    }
    if (rows.length === 0) {
      hasMore = false;
      break;
    }
  }
  return { changes, pagination: { limit: page.limit, next_cursor: encodeCursor(afterId), has_more: hasMore } };
}
