/**
 * Keeping a local copy of every task a token can see, through the changes feed
 * (`GET /api/v1/changes/tasks/`, docs/api/changes-feed.md):
 * - the feed is ordered by id, not by `changed_at`, so the high-water mark is the largest
 *   `changed_at` seen anywhere in the walk, not the last one;
 * - applying a change twice is harmless: `created`/`updated` are upserts of the task JSON,
 *   `deleted` removes the local copy;
 * - the mark is stored only after the whole walk succeeded, so a walk that fails half-way is
 *   simply run again from the old mark.
 */
import type { TaskTrackerClient } from './client.js';
import type { components } from './generated/openapi.js';

export type Task = components['schemas']['Task'];
export type ChangeRecord = components['schemas']['ChangeRecord'];

/** Where the high-water mark lives between runs (a file, a database row). */
export interface HighWaterStore {
  load(): Promise<string | null> | string | null;
  save(mark: string): Promise<void> | void;
}

export interface SyncOptions {
  store: HighWaterStore;
  /** A `created` or `updated` change: store this task JSON under `task.key`. */
  upsert(task: Task, change: ChangeRecord): Promise<void> | void;
  /** A `deleted` change: drop the local copy of `key` (it may already be gone). */
  remove(key: string, change: ChangeRecord): Promise<void> | void;
  /** Changes per page, default 200 (the maximum). */
  pageSize?: number;
  /**
   * How far before the stored mark each walk starts, default 5 s: concurrent writers can
   * commit slightly out of `changed_at` order, and re-applying a change is harmless.
   */
  overlapMs?: number;
}

export interface SyncResult {
  /** Changes applied by this walk. */
  changes: number;
  pages: number;
  /** The mark the walk started from, and the one it stored. */
  previous: string | null;
  highWater: string | null;
}

/** `changed_at` values all have the service's one format (UTC, microseconds, `Z`), so text order is time order. */
const later = (a: string | null, b: string): string => (a === null || b > a ? b : a);

export async function syncTaskChanges(client: TaskTrackerClient, options: SyncOptions): Promise<SyncResult> {
  const previous = await options.store.load();
  const since =
    previous === null ? undefined : new Date(Date.parse(previous) - (options.overlapMs ?? 5_000)).toISOString();
  let highWater = previous;
  let changes = 0;
  let pages = 0;
  let cursor = '';
  for (;;) {
    const { body } = await client.get('/api/v1/changes/tasks/', {
      params: { query: { cursor, limit: options.pageSize ?? 200, ...(since === undefined ? {} : { since }) } },
    });
    pages += 1;
    for (const change of body.data.changes) {
      if (change.action === 'deleted') await options.remove(change.key, change);
      else if (change.task) await options.upsert(change.task, change);
      highWater = later(highWater, change.changed_at);
      changes += 1;
    }
    if (!body.pagination.has_more) break;
    cursor = body.pagination.next_cursor;
  }
  if (highWater !== null && highWater !== previous) await options.store.save(highWater);
  return { changes, pages, previous, highWater };
}
