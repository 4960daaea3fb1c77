import type { AppContext } from '../../context.ts';
import { invalid } from '../../http/errors.ts';
import { decodeCursor, encodeCursor } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { readableProjectByKey } from '../../policy/index.ts';
import { boardStatuses, columnIds, countsByStatus } from './task-board.repository.ts';
import { DEFAULT_CARDS_PER_COLUMN, type BoardJson, type BoardQueryInput } from './task-board.schemas.ts';
import { presentTaskRow } from './task.presenter.ts';
import { taskRowsInOrder } from './task-list.repository.ts';
import { listFilter } from './task-read.service.ts';

/**
 * A project's board in one read: every status in board order with how many tasks match the
 * filters and its first cards (docs/web-app.md, "The board"). With `status`, one column, after
 * `cursor`. Its cost follows the cards asked for, not the project's size: one count grouped by
 * status, one short range per column, then the cards' rows in one statement.
 */
export async function readBoard(
  ctx: AppContext,
  principal: Principal,
  projectKey: string,
  query: BoardQueryInput,
): Promise<BoardJson> {
  const project = await readableProjectByKey(ctx.db, principal, projectKey);
  if (query.cursor !== undefined && query.status === undefined)
    throw invalid({ cursor: 'a cursor continues one column: send it with that column’s status' });
  const limit = query.limit ?? DEFAULT_CARDS_PER_COLUMN;
  const afterId = decodeCursor(query.cursor ?? '');
  const { text, status, ...filters } = query;
  const matching = { projectId: project.id, filter: listFilter(filters), ...(text ? { text } : {}) };

  let statuses = await boardStatuses(ctx.db, project.id);
  if (status !== undefined) {
    statuses = statuses.filter((s) => s.name === status);
    if (!statuses.length) throw invalid({ status: `no status named "${status}" in ${project.key}` });
  }
  const counts = await countsByStatus(ctx, matching, status === undefined ? undefined : statuses[0]!.id);
  const idsPerColumn = await Promise.all(
    statuses.map((s) => ((counts.get(s.id) ?? 0) > 0 ? columnIds(ctx, matching, s.id, afterId, limit) : [])),
  );
  const shown = idsPerColumn.map((ids) => ids.slice(0, limit));
  const rows = new Map((await taskRowsInOrder(ctx, shown.flat())).map((row) => [row.id, row]));
  return {
    columns: statuses.map((s, i) => {
      const ids = shown[i]!;
      const cards = ids.flatMap((id) => {
        const row = rows.get(id);
        return row ? [{ ...presentTaskRow(row, row), version: row.version }] : [];
      });
      return {
        status: { id: s.id, name: s.name, category: s.category, position: s.position },
        count: counts.get(s.id) ?? 0,
        cards,
        next_cursor: encodeCursor(ids.at(-1) ?? afterId),
        has_more: idsPerColumn[i]!.length > limit,
      };
    }),
  };
}
