/**
 * Keeps a local copy of every task a token can see, through the changes feed and
 * `@tasktracker/client` (docs/api/changes-feed.md and docs/sdk.md):
 *
 *   TASKTRACKER_URL=http://localhost:8080 TASKTRACKER_TOKEN=tt_... node --import tsx examples/sync-tasks.ts ./tasks.json
 *
 * Each run walks the feed from the stored high-water mark, upserts `created`/`updated`
 * changes, deletes on `deleted`, and only after the whole walk writes the tasks and the new
 * mark (the largest `changed_at` seen) together, atomically. Applying a change twice is
 * harmless, so a run that fails half-way is simply run again. A copy older than the feed's
 * retention is rebuilt from scratch (410 RESYNC_REQUIRED).
 */
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import { createClient, syncTaskChanges, type SyncResult, type Task, type TaskTrackerClient } from '@tasktracker/client';

export interface SyncState {
  /** Largest changed_at applied by the last complete walk; null before the first. */
  highWater: string | null;
  tasks: Record<string, Task>;
}

/** One run: returns the new state, or throws and leaves `state` as it was. */
export async function syncTasks(
  client: TaskTrackerClient,
  state: SyncState,
  pageSize = 200,
): Promise<SyncState & { result: SyncResult }> {
  let tasks = { ...state.tasks };
  let highWater = state.highWater;
  const result = await syncTaskChanges(client, {
    pageSize,
    store: { load: () => state.highWater, save: (mark) => void (highWater = mark) },
    upsert: (task) => void (tasks[task.key] = task),
    remove: (key) => void delete tasks[key],
    // The feed's retention removed deletions this copy needed: rebuild it from scratch.
    reset: () => {
      tasks = {};
    },
  });
  return { highWater, tasks, result };
}

async function main(file: string): Promise<void> {
  const token = process.env.TASKTRACKER_TOKEN;
  if (!token) throw new Error('Set TASKTRACKER_TOKEN to a token with tasks:read.');
  const client = createClient({ baseUrl: process.env.TASKTRACKER_URL ?? 'http://localhost:8080', token });
  const state: SyncState = fs.existsSync(file)
    ? JSON.parse(fs.readFileSync(file, 'utf8'))
    : { highWater: null, tasks: {} };
  const { result, ...next } = await syncTasks(client, state);
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(next));
  fs.renameSync(tmp, file);
  console.log(
    JSON.stringify({
      changes: result.changes,
      pages: result.pages,
      tasks: Object.keys(next.tasks).length,
      high_water: next.highWater,
    }),
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv[2] ?? './tasks-sync.json').catch((error: unknown) => {
    console.error(String(error));
    process.exit(1);
  });
}
