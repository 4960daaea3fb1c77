/**
 * Reference client for the changes feed (spec 4.2, changes feed rules 1-6): keeps a local copy
 * of every task a token can see.
 *
 *   TASKTRACKER_URL=http://localhost:8080 TASKTRACKER_TOKEN=tt_... node --import tsx examples/sync-tasks.ts ./tasks.json
 *
 * Each run walks the feed from the stored high-water mark with `next_cursor` until `has_more` is
 * false, upserts `created`/`updated` changes, deletes on `deleted`, and only then saves the
 * new high-water mark (the largest `changed_at` seen; the feed is ordered by id, not time).
 * Applying a change twice is harmless, so a crashed run is simply run again.
 */
import fs from 'node:fs';

export interface Change {
  id: number;
  action: 'created' | 'updated' | 'deleted';
  key: string;
  changed_at: string;
  task?: Record<string, unknown>;
}

export interface SyncState {
  /** Largest changed_at applied by the last complete walk; null before the first. */
  highWater: string | null;
  tasks: Record<string, Record<string, unknown>>;
}

/** GETs a path of the API and returns the parsed JSON body; throws on a non-2xx answer. */
export type Get = (path: string) => Promise<{ status: number; body: unknown }>;

/**
 * Commits can land slightly out of `changed_at` order across concurrent writers, so each walk
 * starts a little before the mark. Re-applying those changes is harmless (rule 5).
 */
const OVERLAP_MS = 5_000;

function sinceFor(highWater: string | null): string | null {
  if (!highWater) return null;
  const ms = Date.parse(highWater) - OVERLAP_MS;
  return new Date(ms).toISOString();
}

export async function syncTasks(get: Get, state: SyncState, pageSize = 200): Promise<SyncState> {
  const tasks = { ...state.tasks };
  let maxSeen = state.highWater;
  const since = sinceFor(state.highWater);
  let cursor = '';
  for (;;) {
    const query = new URLSearchParams({ cursor, limit: String(pageSize) });
    // URLSearchParams escapes `+` in offsets; this mark always ends in Z anyway (rule 3).
    if (since) query.set('since', since);
    const res = await get(`/api/v1/changes/tasks/?${query}`);
    if (res.status !== 200) throw new Error(`changes feed answered ${res.status}: ${JSON.stringify(res.body)}`);
    const body = res.body as { data: { changes: Change[] }; pagination: { next_cursor: string; has_more: boolean } };
    for (const change of body.data.changes) {
      if (change.action === 'deleted') delete tasks[change.key];
      else if (change.task) tasks[change.key] = change.task;
      if (!maxSeen || change.changed_at > maxSeen) maxSeen = change.changed_at;
    }
    cursor = body.pagination.next_cursor;
    if (!body.pagination.has_more) break;
  }
  // Only a complete walk moves the mark (rule 6).
  return { highWater: maxSeen, tasks };
}

async function main(file: string): Promise<void> {
  const baseUrl = process.env.TASKTRACKER_URL ?? 'http://localhost:8080';
  const token = process.env.TASKTRACKER_TOKEN;
  if (!token) throw new Error('set TASKTRACKER_TOKEN');
  const state: SyncState = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, 'utf8')) : { highWater: null, tasks: {} };
  const get: Get = async (path) => {
    const res = await fetch(new URL(path, baseUrl), { headers: { authorization: `Bearer ${token}` } });
    if (res.status === 429) {
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after') ?? '1') * 1000));
      return get(path);
    }
    return { status: res.status, body: await res.json() };
  };
  const next = await syncTasks(get, state);
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(next));
  fs.renameSync(tmp, file);
  console.log(JSON.stringify({ tasks: Object.keys(next.tasks).length, high_water: next.highWater }));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv[2] ?? './tasks-sync.json').catch((error: unknown) => {
    console.error(String(error));
    process.exit(1);
  });
}
