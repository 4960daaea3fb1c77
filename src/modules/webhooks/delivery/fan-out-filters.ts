/**
 * Webhook filters (docs/api/webhooks.md, "Filters"). An endpoint with a `filter` receives an
 * event about a task only when the task matches the filter right after the change, or matched
 * it right before (the change that makes it leave the filter, so a consumer mirroring the
 * filter stays correct); task.deleted only when the task matched before the deletion.
 *
 * Both states come from the change record the event's task write made, which keeps the task
 * right after and what it was right before (changes/task-states.ts). An event no task write raised
 * (task.due_soon, task.escalated, comment.created) is judged by the task as it is now, its
 * latest change record. The filter is bound for the endpoint's governing account, as its
 * deliveries are: `me()` is that account and names resolve in the projects it sees (only the
 * endpoint's project for a project endpoint), in UTC.
 */
import type { AppContext } from '../../../context.ts';
import type { Executor } from '../../../db/database.ts';
import { changesByIds, latestChangeIdsOf } from '../../changes/changes.repository.ts';
import { taskStatesOf } from '../../changes/task-states.ts';
import { QueryError } from '../../query/query-error.ts';
import { checkQuery, matchStates, type TaskStates } from '../../query/query.service.ts';
import { envelopesOf } from './fan-out.repository.ts';

export interface FannedEvent {
  id: number;
  type: string;
  task_change_id: number | null;
}

export interface FilteredEndpoint {
  organization_id: number;
  governed_by: number;
  project_id: number | null;
  filter: string;
}

const isAboutTask = (type: string) => type.startsWith('task.') || type.startsWith('comment.');

/** The task states each event about a task is judged by, by outbox id; absent when the task is unknown. */
export async function statesOfEvents(db: Executor, events: FannedEvent[]): Promise<Map<number, TaskStates>> {
  const aboutTask = events.filter((event) => isAboutTask(event.type));
  const written = aboutTask.filter((event) => event.task_change_id !== null);
  const others = aboutTask.filter((event) => event.task_change_id === null);

  const keyOf = new Map(
    (
      await envelopesOf(
        db,
        others.map((event) => event.id),
      )
    ).map((row) => [row.id, (JSON.parse(row.envelope) as { data: { task?: { key?: string } } }).data.task?.key]),
  );
  const latest = new Map(
    (await latestChangeIdsOf(db, [...new Set([...keyOf.values()].filter((key) => key !== undefined))])).map((row) => [
      row.key,
      row.id,
    ]),
  );
  const changes = new Map(
    (
      await changesByIds(db, [
        ...written.map((event) => event.task_change_id!),
        ...[...latest.values()].filter((id) => id !== null),
      ])
    ).map((row) => [row.id, row]),
  );

  const states = new Map<number, TaskStates>();
  for (const event of written) {
    const change = changes.get(event.task_change_id!);
    if (change) states.set(event.id, taskStatesOf(change));
  }
  for (const event of others) {
    const key = keyOf.get(event.id);
    const change = key === undefined ? undefined : changes.get(latest.get(key) ?? -1);
    if (!change) continue;
    const { taskId, after } = taskStatesOf(change);
    states.set(event.id, { taskId, before: after, after });
  }
  return states;
}

/**
 * The ids of `events` (covered by the endpoint) that its filter lets through. A filter that no
 * longer binds (a custom field it names was deleted) lets no event about a task through.
 */
export async function eventsPassing(
  ctx: AppContext,
  db: Executor,
  endpoint: FilteredEndpoint,
  projects: Array<{ id: number; key: string }>,
  events: FannedEvent[],
  states: Map<number, TaskStates>,
): Promise<Set<number>> {
  const passing = new Set(events.filter((event) => !isAboutTask(event.type)).map((event) => event.id));
  const judged = events.filter((event) => states.has(event.id));
  if (judged.length === 0) return passing;
  let verdicts: Array<{ before: boolean; after: boolean }>;
  try {
    verdicts = await matchStates(
      ctx,
      db,
      checkQuery(endpoint.filter),
      {
        accountId: endpoint.governed_by,
        organizationId: endpoint.organization_id,
        projects: endpoint.project_id === null ? projects : projects.filter((p) => p.id === endpoint.project_id),
        timeZone: 'UTC',
      },
      judged.map((event) => states.get(event.id)!),
    );
  } catch (error) {
    if (error instanceof QueryError) return passing;
    throw error;
  }
  judged.forEach((event, i) => {
    const { before, after } = verdicts[i]!;
    if (event.type === 'task.deleted' ? before : before || after) passing.add(event.id);
  });
  return passing;
}
