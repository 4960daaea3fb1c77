/**
 * Keeping a local copy of every task a token can see, through the changes feed
 * (`GET /api/v1/changes/tasks/`, docs/api/changes-feed.md):
 * - the feed is ordered by id, not by `changed_at`, so the high-water mark is the largest
 *   `changed_at` seen anywhere in the walk, not the last one;
 * - applying a change twice is harmless: `created`/`updated` are upserts of the task JSON,
 *   `deleted` removes the local copy;
 * - the mark is stored only after the whole walk succeeded, so a walk that fails half-way is
 *   simply run again from the old mark;
 * - `410 RESYNC_REQUIRED` (retention removed deletions the walk needed) is answered, when the
 *   caller gives `reset`, by dropping the copy and walking again from the start.
 */
import type { TaskTrackerClient } from './client.js';
import { isApiError } from './errors.js';
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
  /**
   * The feed answered `410 RESYNC_REQUIRED`: its retention removed deletion records this walk
   * needed (the mark is older than the retention, or they went during the walk). Drop every
   * local copy; the walk then starts again from the start, which copies every task there is.
   * Without it, `syncTaskChanges` throws that `ApiError`.
   */
  reset?(): Promise<void> | void;
}

export interface SyncResult {
  /** Changes applied by this walk. */
  changes: number;
  pages: number;
  /** The mark the walk started from, and the one it stored. */
  previous: string | null;
  highWater: string | null;
  /** The copy was dropped (`reset`) and rebuilt from a walk from the start. */
  resynced: boolean;
}

/** `changed_at` values all have the service's one format (UTC, microseconds, `Z`), so text order is time order. */
const later = (a: string | null, b: string): string => (a === null || b > a ? b : a);

export async function syncTaskChanges(client: TaskTrackerClient, options: SyncOptions): Promise<SyncResult> {
  const previous = await options.store.load();
  try {
    return { ...(await walk(client, options, previous)), previous, resynced: false };
  } catch (error) {
    if (!options.reset || !isApiError(error, 'RESYNC_REQUIRED')) throw error;
    await options.reset();
    return { ...(await walk(client, options, null)), previous, resynced: true };
  }
}

/** One walk from `from` (from the start when null); saves the new mark once it is done. */
async function walk(
  client: TaskTrackerClient,
  options: SyncOptions,
  from: string | null,
): Promise<Omit<SyncResult, 'previous' | 'resynced'>> {
  const since = from === null ? undefined : new Date(Date.parse(from) - (options.overlapMs ?? 5_000)).toISOString();
  let highWater = from;
  let changes = 0;
  let pages = 0;
  let cursor = '';
  for (;;) {
    const { body } = await client.get('/api/v1/changes/tasks/', {
      params: { query: { cursor, limit: options.pageSize ?? 200, ...(since === undefined ? {} : { since }) } },
    });
    pages += 1;
    for (const change of body.data.changes) {
      // `left` (a feed filtered by a query) removes the copy as a deletion does.
      if (change.action === 'deleted' || change.action === 'left') await options.remove(change.key, change);
      else await options.upsert(change.task, change);
      highWater = later(highWater, change.changed_at);
      changes += 1;
    }
    if (!body.pagination.has_more) break;
    cursor = body.pagination.next_cursor;
  }
  if (highWater !== null && highWater !== from) await options.store.save(highWater);
  return { changes, pages, highWater };
}
