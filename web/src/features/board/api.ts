import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { components } from '@tasktracker/client';
import type { Task } from '../../lib/api-types.ts';
import { get, qs } from '../../lib/http.ts';
import { taskKeys } from '../tasks/api.ts';
import type { TaskFilters } from '../tasks/filters.ts';

export type BoardCard = components['schemas']['BoardCard'];
export type BoardColumn = components['schemas']['BoardColumn'];
export interface BoardData {
  columns: BoardColumn[];
}

/** Cards per column of the first read: a tall screen's worth; the rest come as a column scrolls. */
export const CARDS_PER_PAGE = 50;

/** The board's query parameters: the list's filters, with the text filter done by the server. */
const boardParams = (filters: TaskFilters) => {
  const { q, ...rest } = filters;
  return { ...rest, text: q };
};
type BoardParams = ReturnType<typeof boardParams>;

const boardKey = (projectKey: string, filters: TaskFilters) =>
  [...taskKeys.lists(projectKey), 'board', boardParams(filters)] as const;

/** Every status of the project with its count and first cards, in one request whatever the project's size. */
export const boardQuery = (projectKey: string, filters: TaskFilters) =>
  queryOptions({
    queryKey: boardKey(projectKey, filters),
    queryFn: ({ signal }) =>
      get<BoardData>(
        `/api/v1/projects/${projectKey}/board/${qs({ ...boardParams(filters), limit: CARDS_PER_PAGE })}`,
        signal,
      ),
  });

/** How many cards each column holds, read with one card per column. */
export async function fetchCounts(projectKey: string, params: BoardParams): Promise<Map<string, number>> {
  const board = await get<BoardData>(`/api/v1/projects/${projectKey}/board/${qs({ ...params, limit: 1 })}`);
  return new Map(board.columns.map((c) => [c.status.name, c.count]));
}

/** A column's next cards, added to the cached board. */
export async function loadMoreCards(
  client: QueryClient,
  projectKey: string,
  filters: TaskFilters,
  status: string,
): Promise<void> {
  const key = boardKey(projectKey, filters);
  const column = client.getQueryData<BoardData>(key)?.columns.find((c) => c.status.name === status);
  if (!column?.has_more) return;
  const page = await get<BoardData>(
    `/api/v1/projects/${projectKey}/board/${qs({ ...boardParams(filters), limit: CARDS_PER_PAGE, status, cursor: column.next_cursor })}`,
  );
  const next = page.columns[0];
  if (!next) return;
  client.setQueryData<BoardData>(key, (board) =>
    board
      ? {
          columns: board.columns.map((c) => {
            if (c.status.name !== status) return c;
            const have = new Set(c.cards.map((card) => card.key));
            return {
              ...c,
              cards: [...c.cards, ...next.cards.filter((card) => !have.has(card.key))],
              next_cursor: next.next_cursor,
              has_more: next.has_more,
            };
          }),
        }
      : board,
  );
}

/** The version an ETag `"v7"` names. */
export const versionOf = (etag: string | null): number => Number(/v(\d+)/.exec(etag ?? '')?.[1] ?? 0);

/**
 * Puts a card on every open board of the project (see placeCard); a board that cannot place it
 * without the server is left as it is for the live event to settle.
 */
export function placeOnBoards(client: QueryClient, projectKey: string, key: string, card: BoardCard, existed: boolean) {
  for (const [queryKey, board] of boardsOf(client, projectKey)) {
    const next = placeCard(board, key, card, queryKey[3], existed);
    if (next) client.setQueryData(queryKey, next);
  }
}

/** A task as the board shows it. */
export const cardOf = (task: Task, version: number): BoardCard => ({
  key: task.key,
  project: task.project,
  title: task.title,
  task_type: task.task_type,
  priority: task.priority,
  status: task.status,
  status_category: task.status_category,
  assignee: task.assignee,
  parent: task.parent,
  due_date: task.due_date,
  labels: task.labels,
  milestone: task.milestone,
  sprint: task.sprint,
  version,
  updated_at: task.updated_at,
});

/** The task's number in its project: cards stand oldest first, which is by number. */
const numberOf = (key: string) => Number(key.slice(key.lastIndexOf('-') + 1));

/** Whether a card belongs on a board read with these filters (the server's rules for each). */
export function cardMatches(card: BoardCard, params: BoardParams): boolean {
  const is = (wanted: string | undefined, value: string | number | null) =>
    !wanted || (wanted === 'none' ? value === null : String(value) === wanted);
  if (!is(params.assignee, card.assignee) || !is(params.sprint, card.sprint) || !is(params.milestone, card.milestone))
    return false;
  if (params.task_type && params.task_type !== card.task_type) return false;
  if (params.priority && params.priority !== card.priority) return false;
  if (params.label && !card.labels.includes(params.label)) return false;
  if (params.text) {
    const text = params.text.toLowerCase();
    const title = card.title.toLowerCase();
    const words = text.split(/\s+/).filter(Boolean);
    if (!card.key.toLowerCase().includes(text) && !words.every((w) => title.includes(w))) return false;
  }
  return true;
}

/**
 * Puts `card` where it now belongs on one cached board (or takes it off when `card` is null,
 * or no longer matches): counts follow, and a card past a column's loaded cards is left for
 * that column's next page. False when the board could not tell which column lost the card
 * (it was not loaded), so its counts need the server.
 */
export function placeCard(
  board: BoardData,
  key: string,
  card: BoardCard | null,
  filters: unknown,
  existed: boolean,
): BoardData | false {
  const params = filters as BoardParams;
  const from = board.columns.find((c) => c.cards.some((x) => x.key === key));
  if (existed && !from && board.columns.some((c) => c.has_more)) return false;
  const keep = card && cardMatches(card, params) ? card : null;
  const columns = board.columns.map((column) => {
    let { cards, count } = column;
    if (column === from) {
      cards = cards.filter((x) => x.key !== key);
      count -= 1;
    }
    if (keep && column.status.name === keep.status) {
      count += 1;
      const number = numberOf(keep.key);
      const at = cards.findIndex((x) => numberOf(x.key) > number);
      if (at >= 0) cards = [...cards.slice(0, at), keep, ...cards.slice(at)];
      else if (!column.has_more) cards = [...cards, keep];
    }
    return cards === column.cards && count === column.count ? column : { ...column, cards, count };
  });
  return { columns };
}

export const boardsOf = (client: QueryClient, projectKey: string) =>
  client
    .getQueriesData<BoardData>({ queryKey: taskKeys.lists(projectKey) })
    .filter(([key, data]) => key[2] === 'board' && data !== undefined) as Array<[readonly unknown[], BoardData]>;

export const cardIn = (board: BoardData, key: string) =>
  board.columns.flatMap((c) => c.cards).find((card) => card.key === key);
