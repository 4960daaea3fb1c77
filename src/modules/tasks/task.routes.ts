import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { confirmedPrincipal } from '../../identity/auth-hook.ts';
import { ok } from '../../http/envelope.ts';
import { commitNoContent } from '../../http/no-content.ts';
import { errorResponses } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { registerBoardRoute } from './task-board.routes.ts';
import { Board, BoardCard, BoardColumn } from './task-board.schemas.ts';
import { registerProjectTaskRoutes } from './task-project.routes.ts';
import { registerTaskQueryRoute } from './task-query.routes.ts';
import { registerActivityRoutes, registerFollowerRoutes, registerSubtaskRoutes } from './task-relations.routes.ts';
import { callerOf, IfMatchHeaders, OneTask, read, tags, withEtag, write } from './task.http.ts';
import { etagOf } from './task.presenter.ts';
import {
  AssignBody,
  FollowState,
  Task,
  TaskActivity,
  TaskFollower,
  TaskKeyParams,
  TaskUpdateBody,
} from './task.schemas.ts';
import { assignTask, deleteTask, updateTask } from './task-lifecycle.service.ts';
import { getTask } from './task-read.service.ts';

export const taskModels = [Task, TaskActivity, TaskFollower, FollowState, BoardCard, BoardColumn, Board];

/**
 * Every task route: a project's tasks, one task, and what hangs off a task (activity, followers,
 * subtasks). Registered in this order, which is the order of docs/openapi.json.
 */
export function registerTaskRoutes(app: Api, ctx: AppContext): void {
  registerProjectTaskRoutes(app, ctx);
  registerBoardRoute(app, ctx);
  registerTaskQueryRoute(app, ctx);
  registerTaskItemRoutes(app, ctx);
  registerActivityRoutes(app, ctx);
  registerAssignRoute(app, ctx);
  registerFollowerRoutes(app, ctx);
  registerSubtaskRoutes(app, ctx);
}

/** One task by key: read, change, delete. */
function registerTaskItemRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/tasks/:task_key/',
    {
      schema: {
        tags,
        summary: 'Read a task (with its ETag)',
        params: TaskKeyParams,
        response: { 200: OneTask, ...errorResponses(404) },
      },
      config: { ...read, authEpochInRead: true },
    },
    async (request, reply) => {
      const { task, version } = await getTask(ctx, request.params.task_key, (authEpoch) =>
        confirmedPrincipal(request, authEpoch),
      );
      reply.header('etag', etagOf(version));
      return ok(task);
    },
  );

  app.put(
    '/api/v1/tasks/:task_key/',
    {
      schema: {
        tags,
        summary: "Change any subset of a task's writable fields",
        description:
          "Omitted fields keep their values; null clears a nullable field. A status change must follow a transition of the project's workflow (422 INVALID_TRANSITION with `details: {from, to}` otherwise, and nothing changes). A new `start_date` before the due date of an open task that blocks this one is 422 SCHEDULE_CONFLICT with `details.blockers` unless `force` is true (docs/api/planning.md). With If-Match, a task changed since that read is refused with 412.",
        params: TaskKeyParams,
        headers: IfMatchHeaders,
        body: TaskUpdateBody,
        response: { 200: OneTask, ...errorResponses(404, 412, 422) },
      },
      config: write,
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => updateTask(tx, callerOf(request), request.params.task_key, request.body, request.headers['if-match']),
        withEtag(reply),
      ),
  );

  app.delete(
    '/api/v1/tasks/:task_key/',
    {
      schema: {
        tags,
        summary: 'Delete a task (its subtasks are detached, not deleted)',
        description:
          'Subtasks become top-level tasks, each with its own task.updated event and change record. The key is never reused.',
        params: TaskKeyParams,
        headers: IfMatchHeaders,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404, 412) },
      },
      config: write,
    },
    async (request, reply) =>
      commitNoContent(ctx, reply, (tx) =>
        deleteTask(tx, callerOf(request), request.params.task_key, request.headers['if-match']),
      ),
  );
}

function registerAssignRoute(app: Api, ctx: AppContext): void {
  app.post(
    '/api/v1/tasks/:task_key/assign/',
    {
      schema: {
        tags,
        summary: 'Set or clear the assignee (a member of the project)',
        params: TaskKeyParams,
        headers: IfMatchHeaders,
        body: AssignBody,
        response: { 200: OneTask, ...errorResponses(404, 412) },
      },
      config: write,
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) =>
          assignTask(
            tx,
            callerOf(request),
            request.params.task_key,
            request.body.assignee,
            request.headers['if-match'],
          ),
        withEtag(reply),
      ),
  );
}
