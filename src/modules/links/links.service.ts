import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { type ActionOrigin, recordEvent } from '../../events/record-event.ts';
import { ApiError, foundOr404, invalid, notFound } from '../../http/errors.ts';
import { type PageRequest } from '../../http/pagination.ts';
import { recordActivities } from '../activity/activity.repository.ts';
import type { Principal } from '../../identity/principal.ts';
import { authorize } from '../../policy/index.ts';
import { findVisibleTaskRef, type TaskRef } from '../tasks/task.repository.ts';
import type { Caller } from '../../identity/caller.ts';
import { canonicalEdge, cycleFrom, type Edge, sideOf } from './link-graph.ts';
import * as repo from './links.repository.ts';
import type { LinkCreateInput, LinkKind, TaskLinkJson } from './links.schemas.ts';

async function visibleTask(ctx: AppContext, principal: Principal, key: string): Promise<TaskRef> {
  const task = await findVisibleTaskRef(ctx.db, principal, key);
  if (!task) throw notFound(`Task ${key}`);
  return task;
}

async function writableTask(ctx: AppContext, principal: Principal, key: string): Promise<TaskRef> {
  const task = await visibleTask(ctx, principal, key);
  authorize(principal, 'project.contribute', { kind: 'project', project: task.project }, 'links');
  return task;
}

function present(row: repo.VisibleLinkRow, taskId: number): TaskLinkJson {
  return {
    id: row.id,
    type: sideOf(row, taskId).type,
    task: { key: row.key, title: row.title, status: row.status },
    created_by: row.created_by,
    created_at: row.created_at,
  };
}

/**
 * One activity row on each end of the link, each describing it from that task's side. Links
 * are not part of the task JSON, so they bump no version and emit no task.updated; their
 * events are task.linked and task.unlinked.
 */
async function recordLinkActivity(
  db: Executor,
  origin: ActionOrigin,
  action: 'linked' | 'unlinked',
  link: { id: number } & Edge,
  keys: Map<number, string>,
  at: string,
): Promise<void> {
  const rows = [link.from_task_id, link.to_task_id].map((taskId) => {
    const { type, otherId } = sideOf(link, taskId);
    const value = JSON.stringify({ id: link.id, type, task: keys.get(otherId) });
    return {
      task_id: taskId,
      actor_id: origin.actor.id,
      action,
      field: 'links',
      from_value: action === 'unlinked' ? value : null,
      to_value: action === 'linked' ? value : null,
      created_at: at,
    };
  });
  await recordActivities(db, rows);
}

/**
 * task.linked or task.unlinked, read from the canonical edge's `from` to its `to`. Its project
 * is `from`'s and, across projects, `to`'s project is related: only those who see both hear of it.
 */
async function recordLinkEvent(
  db: Executor,
  origin: ActionOrigin,
  type: 'task.linked' | 'task.unlinked',
  link: { id: number } & Edge,
  at: string,
): Promise<void> {
  const ends = new Map((await repo.linkEnds(db, [link.from_task_id, link.to_task_id])).map((end) => [end.id, end]));
  const from = ends.get(link.from_task_id)!;
  const to = ends.get(link.to_task_id)!;
  const end = (task: typeof from) => ({ key: task.key, title: task.title, project: task.project_key });
  await recordEvent(db, {
    type,
    origin,
    projectId: from.project_id,
    relatedProjectId: to.project_id === from.project_id ? null : to.project_id,
    occurredAt: at,
    data: { link: { id: link.id, type: link.type, from: end(from), to: end(to) } },
  });
}

/** The existing link between the two tasks that the new one would duplicate, seen from `taskId`. */
async function existingEquivalent(
  db: Executor,
  edge: Edge,
  taskId: number,
): Promise<{ id: number; type: LinkKind } | undefined> {
  // `relates_to` is canonical by id order and `blocks` in the reverse direction is a loop (reported as
  // such below), so only `duplicates` has a reverse row that is the same relationship.
  const row = await repo.findEquivalentLink(db, edge);
  return row && { id: row.id, type: sideOf(row, taskId).type };
}

function duplicateLink(existing: { id: number; type: LinkKind }, otherKey: string): ApiError {
  return new ApiError(
    'DUPLICATE_LINK',
    `This task already has a "${existing.type}" link with ${otherKey} (link ${existing.id}); a link and its mirror are one link.`,
    {
      link_id: existing.id,
      type: existing.type,
    },
  );
}

/** 422 when the new `blocks` edge would close a loop; the loop is named from `taskId`. */
async function assertNoCycle(db: Executor, edge: Edge, taskId: number): Promise<void> {
  if (edge.type !== 'blocks') return;
  const path = await repo.findBlockingPath(db, edge.from_task_id, edge.to_task_id);
  if (!path) return;
  const cycle = cycleFrom(taskId, edge.from_task_id, path);
  const keys = await repo.taskKeys(db, cycle);
  const names = cycle.map((id) => keys.get(id)!);
  const loop =
    names.length <= 11
      ? names.join(' blocks ')
      : `${names.length - 1} tasks, ${names.slice(0, 3).join(' blocks ')} blocks ...`;
  throw new ApiError('DEPENDENCY_CYCLE', `The link would close a dependency loop: ${loop} (details.path lists it).`, {
    path: names,
  });
}

/**
 * Links the task to another one the caller can see (any project of the workspace). The check
 * for an existing equivalent link, the cycle check and the insert happen under the
 * organization's link lock, in the caller's transaction.
 */
export async function createLink(tx: Tx, caller: Caller, key: string, input: LinkCreateInput): Promise<TaskLinkJson> {
  const task = await writableTask(tx, caller.principal, key);
  const other = await visibleTask(tx, caller.principal, input.task);
  if (other.id === task.id) throw invalid({ task: 'a task cannot be linked to itself' });
  const edge = canonicalEdge(task.id, other.id, input.type);

  await repo.lockLinkGraph(tx.db, tx.dialect, task.project.organization_id);
  if (!(await repo.holdTasks(tx.db, tx.dialect, [task.id, other.id]))) throw notFound('Task');
  const existing = await existingEquivalent(tx.db, edge, task.id);
  if (existing) throw duplicateLink(existing, other.key);
  await assertNoCycle(tx.db, edge, task.id);

  const now = tx.clock.nowIso();
  const id = await repo.insertLink(tx.db, { ...edge, created_by: caller.origin.actor.id, created_at: now });
  await recordLinkActivity(
    tx.db,
    caller.origin,
    'linked',
    { id, ...edge },
    new Map([
      [task.id, task.key],
      [other.id, other.key],
    ]),
    now,
  );
  await recordLinkEvent(tx.db, caller.origin, 'task.linked', { id, ...edge }, now);
  const row = await repo.findVisibleLink(tx.db, caller.principal, task.id, id);
  return present(row!, task.id);
}

/** The task's links whose other end the caller can see, each from this task's side. */
export async function listLinks(ctx: AppContext, principal: Principal, key: string, page: PageRequest) {
  const task = await visibleTask(ctx, principal, key);
  const { rows, pagination } = await repo.linksPage(ctx.db, principal, task.id, page);
  return { data: rows.map((row) => present(row, task.id)), pagination };
}

/** Deletes a link through either of its tasks; a link whose other end the caller cannot see is a 404. */
export async function deleteLink(tx: Tx, caller: Caller, key: string, linkId: number): Promise<void> {
  const task = await writableTask(tx, caller.principal, key);
  const link = await foundOr404(repo.findVisibleLink(tx.db, caller.principal, task.id, linkId), 'Link');
  const otherId = sideOf(link, task.id).otherId;
  // A task deleted meanwhile took the link with it (cascade).
  if (!(await repo.holdTasks(tx.db, tx.dialect, [task.id, otherId]))) throw notFound('Link');
  // The event names both ends as they were, so it is written while the link still exists.
  const now = tx.clock.nowIso();
  await recordLinkEvent(tx.db, caller.origin, 'task.unlinked', link, now);
  // A concurrent delete won the race: the link is gone either way, but only one request records it.
  if (!(await repo.deleteLink(tx.db, linkId))) throw notFound('Link');
  const keys = new Map([
    [task.id, task.key],
    [otherId, link.key],
  ]);
  await recordLinkActivity(tx.db, caller.origin, 'unlinked', link, keys, now);
}
