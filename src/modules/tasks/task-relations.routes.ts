import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { commitNoContent } from '../../http/no-content.ts';
import { pageRequest } from '../../http/pagination.ts';
import { Envelope, errorResponses, ListEnvelope } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { callerOf, OneTask, read, tags, withEtag, write } from './task.http.ts';
import {
  ActivityListQuery,
  FollowerListQuery,
  FollowState,
  type FollowStateJson,
  SubtaskCreateBody,
  SubtaskListQuery,
  Task,
  TaskActivity,
  TaskFollower,
  TaskKeyParams,
} from './task.schemas.ts';
import { listActivities } from './task-activity.service.ts';
import { follow, listFollowers, unfollow } from './task-followers.service.ts';
import { createSubtask } from './task-lifecycle.service.ts';
import { listSubtasks } from './task-read.service.ts';

/** What hangs off one task: its activity, its followers and its subtasks. */

export function registerActivityRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/tasks/:task_key/activities/',
    {
      schema: {
        tags,
        summary: "A task's activity: creation and every field change (newest first by default)",
        params: TaskKeyParams,
        querystring: ActivityListQuery,
        response: { 200: ListEnvelope(Type.Ref(TaskActivity)), ...errorResponses(404) },
      },
      config: read,
    },
    async (request) =>
      listOf(await listActivities(ctx, principalOf(request), request.params.task_key, pageRequest(request.query))),
  );
}

export function registerSubtaskRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/tasks/:task_key/subtasks/',
    {
      schema: {
        tags,
        summary: "The task's direct subtasks",
        params: TaskKeyParams,
        querystring: SubtaskListQuery,
        response: { 200: ListEnvelope(Type.Ref(Task)), ...errorResponses(404) },
      },
      config: read,
    },
    async (request) =>
      listOf(await listSubtasks(ctx, principalOf(request), request.params.task_key, pageRequest(request.query))),
  );

  app.post(
    '/api/v1/tasks/:task_key/subtasks/',
    {
      schema: {
        tags,
        summary: 'Create a subtask (the task-create body; same project, parent set)',
        params: TaskKeyParams,
        body: SubtaskCreateBody,
        response: { 201: OneTask, ...errorResponses(404) },
      },
      config: write,
    },
    async (request, reply) => {
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => createSubtask(tx, callerOf(request), request.params.task_key, request.body),
        withEtag(reply),
      );
    },
  );
}

export function registerFollowerRoutes(app: Api, ctx: AppContext): void {
  app.post(
    '/api/v1/tasks/:task_key/follow/',
    {
      schema: {
        tags,
        summary: "Follow the task as the token's account (idempotent)",
        params: TaskKeyParams,
        response: { 200: Envelope(Type.Ref(FollowState)), ...errorResponses(404) },
      },
      config: write,
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => follow(tx, principalOf(request), request.params.task_key),
        ok<FollowStateJson>,
      ),
  );

  app.delete(
    '/api/v1/tasks/:task_key/follow/',
    {
      schema: {
        tags,
        summary: 'Stop following the task (idempotent)',
        params: TaskKeyParams,
        response: { 204: Type.Null({ description: 'Not following' }), ...errorResponses(404) },
      },
      config: write,
    },
    async (request, reply) =>
      commitNoContent(ctx, reply, (tx) => unfollow(tx, principalOf(request), request.params.task_key)),
  );

  app.get(
    '/api/v1/tasks/:task_key/followers/',
    {
      schema: {
        tags,
        summary: 'Who follows the task',
        params: TaskKeyParams,
        querystring: FollowerListQuery,
        response: { 200: ListEnvelope(Type.Ref(TaskFollower)), ...errorResponses(404) },
      },
      config: read,
    },
    async (request) =>
      listOf(await listFollowers(ctx, principalOf(request), request.params.task_key, pageRequest(request.query))),
  );
}
