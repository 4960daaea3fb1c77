import type { QueryClient } from '@tanstack/react-query';
import type { LiveChange, ResourceChange } from '../../lib/live-change.ts';
import {
  boardsOf,
  cardIn,
  cardOf,
  fetchCounts,
  placeCard,
  versionOf,
  type BoardCard,
  type BoardData,
} from '../board/api.ts';
import { taskKeys, taskQuery, type LoadedTask } from './api.ts';

/**
 * Applies a `task` or `comment` event by key. Open boards move just the card it names, from
 * the event alone when they already hold its version, else from one read of that task (which
 * is also the task screen's cache); never by reading the project again. Other lists of the
 * project are marked stale and read again only where shown.
 */
export function applyTaskChange(client: QueryClient, change: LiveChange): void {
  if (change.kind === 'project' || change.kind === 'notification' || !change.key) return;
  const key = change.key;
  if (change.kind === 'comment') {
    void client.invalidateQueries({ queryKey: taskKeys.comments(key) });
    void client.invalidateQueries({ queryKey: taskKeys.activities(key) });
    return;
  }
  void client.invalidateQueries({
    queryKey: taskKeys.lists(change.project),
    predicate: (query) => query.queryKey[2] !== 'board',
  });
  void client.invalidateQueries({ queryKey: taskKeys.everywhere });
  // What hangs off the task (history, links, subtasks, …); the task itself is read below.
  void client.invalidateQueries({ queryKey: taskKeys.task(key), predicate: (query) => query.queryKey.length > 2 });
  void refreshCard(client, change, key);
}

async function refreshCard(client: QueryClient, change: ResourceChange, key: string): Promise<void> {
  const boards = boardsOf(client, change.project);
  const held = client.getQueryData<LoadedTask>(taskKeys.task(key));
  const current = (version: number) =>
    boards.every(([, board]) => (cardIn(board, key)?.version ?? -1) >= version) &&
    (!held || versionOf(held.etag) >= version);
  if (change.action !== 'deleted' && change.version !== null && current(change.version)) return;
  if (!boards.length && !held) return;

  let card: BoardCard | null = null;
  if (change.action === 'deleted') client.removeQueries({ queryKey: taskKeys.task(key), exact: true });
  else {
    try {
      const loaded = await client.fetchQuery({ ...taskQuery(key), staleTime: 0 });
      card = cardOf(loaded.task, versionOf(loaded.etag));
    } catch {
      // Gone or no longer visible: off the board.
      card = null;
    }
  }
  for (const [queryKey, board] of boardsOf(client, change.project)) {
    const next = placeCard(board, key, card, queryKey[3], change.action !== 'created');
    if (next === false) void refreshCounts(client, change.project, queryKey, key, card);
    else client.setQueryData(queryKey, next);
  }
}

/**
 * The card was past what the board loaded, so which column lost it is unknown: one read of the
 * counts alone (a card per column) settles them, and the cards already shown stay.
 */
async function refreshCounts(
  client: QueryClient,
  project: string,
  queryKey: readonly unknown[],
  key: string,
  card: BoardCard | null,
): Promise<void> {
  const counts = await fetchCounts(project, queryKey[3] as Parameters<typeof fetchCounts>[1]);
  client.setQueryData<BoardData>(queryKey, (board) => {
    if (!board) return board;
    const placed = placeCard(board, key, card, queryKey[3], false) || board;
    return {
      columns: placed.columns.map((column) => ({
        ...column,
        count: counts.get(column.status.name) ?? column.count,
      })),
    };
  });
}
