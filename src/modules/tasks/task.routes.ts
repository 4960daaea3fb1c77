import { ProjectKeyParams } from '../projects/projects.schemas.ts';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { BeforeCommit } from '../../db/before-commit.ts';
import { originFromPrincipal } from '../../events/record-event.ts';
import { principalOf } from '../../http/auth-hook.ts';
import { list, ok } from '../../http/envelope.ts';
import { responseStoredWithWork } from '../../http/idempotency.ts';
import { pageRequest } from '../../http/pagination.ts';
import { Envelope, errorResponses, ListEnvelope } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { bulkValidationError } from './bulk-validation.ts';
import { etagOf, type TaskSnapshot } from './task.presenter.ts';
import {
  ActivityListQuery,
  AssignBody,
  BulkCreateBody,
  BulkUpdateBody,
  FollowerListQuery,
  FollowState,
  type FollowStateJson,
  SubtaskCreateBody,
  SubtaskListQuery,
  Task,
  TaskActivity,
  TaskCreateBody,
  TaskFollower,
  type TaskJson,
  TaskKeyParams,
  TaskListQuery,
  TaskUpdateBody,
} from './task.schemas.ts';
import * as tasks from './task.service.ts';

export const taskModels = [Task, TaskActivity, TaskFollower, FollowState];

const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({ description: 'An ETag from a previous read (or `*`): the write happens only if the task has not changed since (412 otherwise).' }),
  ),
});
const etagHeader = { ETag: { type: 'string', description: 'Version of the task; send it back in If-Match to avoid overwriting a concurrent change.' } };

function callerOf(request: FastifyRequest): tasks.Caller {
  const principal = principalOf(request);
  return { principal, origin: originFromPrincipal(principal, request.id) };
}

function sendTask(reply: FastifyReply, snapshot: TaskSnapshot) {
  reply.header('etag', etagOf(snapshot.row.version));
  return ok(snapshot.task);
}

/** A POST that writes one task: its ETag is sent, and a claimed Idempotency-Key's response is stored with the write. */
async function sendWrittenTask(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, write: (beforeCommit?: BeforeCommit<TaskSnapshot>) => Promise<TaskSnapshot>) {
  const response = responseStoredWithWork(ctx, request, reply, (snapshot: TaskSnapshot) => ok(snapshot.task));
  const snapshot = await write(response.beforeCommit);
  reply.header('etag', etagOf(snapshot.row.version));
  return response.send(snapshot);
}

export function registerTaskRoutes(app: Api, ctx: AppContext): void {
  const tags = ['Tasks'];
  const one = Type.Object({ ...Envelope(Type.Ref(Task)).properties }, { headers: etagHeader });
  const many = Envelope(Type.Array(Type.Ref(Task)));
  const read = { scope: 'tasks:read' } as const;
  const write = { scope: 'tasks:write' } as const;

  app.get('/api/v1/projects/:project_key/tasks/', {
    schema: {
      tags,
      summary: 'List the tasks of a project, with filters',
      params: ProjectKeyParams,
      querystring: TaskListQuery,
      response: { 200: ListEnvelope(Type.Ref(Task)), ...errorResponses(404) },
    },
    config: read,
  }, async (request) => {
    const { data, pagination } = await tasks.listTasks(ctx, principalOf(request), request.params.project_key, request.query, pageRequest(request.query));
    return list(data, pagination);
  });

  app.post('/api/v1/projects/:project_key/tasks/', {
    schema: {
      tags,
      summary: 'Create a task (key PROJ-N; omitted fields take the project defaults)',
      params: ProjectKeyParams,
      body: TaskCreateBody,
      response: { 201: one, ...errorResponses(404) },
    },
    config: write,
  }, async (request, reply) => {
    reply.code(201);
    return sendWrittenTask(ctx, request, reply, (beforeCommit) => tasks.createTask(ctx, callerOf(request), request.params.project_key, request.body, beforeCommit));
  });

  app.post('/api/v1/projects/:project_key/tasks/bulk/', {
    schema: {
      tags,
      summary: 'Create up to 100 tasks, all or nothing',
      description: 'One transaction: if any item is refused nothing is created, and `details.items` lists every refused item as `{index, code, message, fields}`. Each task gets its own events and change record. Counts as one request against the rate limit.',
      params: ProjectKeyParams,
      body: BulkCreateBody,
      response: { 201: many, ...errorResponses(404) },
    },
    attachValidation: true,
    config: write,
  }, async (request, reply) => {
    if (request.validationError) throw bulkValidationError(request.validationError, request.body);
    reply.code(201);
    const response = responseStoredWithWork(ctx, request, reply, ok<TaskJson[]>);
    return response.send(await tasks.bulkCreate(ctx, callerOf(request), request.params.project_key, request.body.tasks, response.beforeCommit));
  });

  app.post('/api/v1/projects/:project_key/tasks/bulk-update/', {
    schema: {
      tags,
      summary: 'Update up to 100 tasks of the project, all or nothing',
      description: 'Each item is `{key, ...fields}` with the fields of PUT /tasks/{task_key}/. One transaction: if any item is refused nothing changes, and `details.items` lists every refused item as `{index, key, code, message, fields}` (an illegal status move has code INVALID_TRANSITION with `from` and `to`). Counts as one request against the rate limit.',
      params: ProjectKeyParams,
      body: BulkUpdateBody,
      response: { 200: many, ...errorResponses(404) },
    },
    attachValidation: true,
    config: write,
  }, async (request, reply) => {
    if (request.validationError) throw bulkValidationError(request.validationError, request.body);
    const response = responseStoredWithWork(ctx, request, reply, ok<TaskJson[]>);
    return response.send(await tasks.bulkUpdate(ctx, callerOf(request), request.params.project_key, request.body.tasks, response.beforeCommit));
  });

  app.get('/api/v1/tasks/:task_key/', {
    schema: { tags, summary: 'Read a task (with its ETag)', params: TaskKeyParams, response: { 200: one, ...errorResponses(404) } },
    config: read,
  }, async (request, reply) => {
    const { task, version } = await tasks.getTask(ctx, principalOf(request), request.params.task_key);
    reply.header('etag', etagOf(version));
    return ok(task);
  });

  app.put('/api/v1/tasks/:task_key/', {
    schema: {
      tags,
      summary: 'Change any subset of a task\'s writable fields',
      description: 'Omitted fields keep their values; null clears a nullable field. A status change must follow a transition of the project\'s workflow (422 INVALID_TRANSITION with `details: {from, to}` otherwise, and nothing changes). With If-Match, a task changed since that read is refused with 412.',
      params: TaskKeyParams,
      headers: IfMatchHeaders,
      body: TaskUpdateBody,
      response: { 200: one, ...errorResponses(404, 412, 422) },
    },
    config: write,
  }, async (request, reply) =>
    sendTask(reply, await tasks.updateTask(ctx, callerOf(request), request.params.task_key, request.body, request.headers['if-match'])),
  );

  app.delete('/api/v1/tasks/:task_key/', {
    schema: {
      tags,
      summary: 'Delete a task (its subtasks are detached, not deleted)',
      description: 'Subtasks become top-level tasks, each with its own task.updated event and change record. The key is never reused.',
      params: TaskKeyParams,
      headers: IfMatchHeaders,
      response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404, 412) },
    },
    config: write,
  }, async (request, reply) => {
    await tasks.deleteTask(ctx, callerOf(request), request.params.task_key, request.headers['if-match']);
    return reply.code(204).send(null);
  });

  app.get('/api/v1/tasks/:task_key/activities/', {
    schema: {
      tags,
      summary: 'A task\'s activity: creation and every field change (newest first by default)',
      params: TaskKeyParams,
      querystring: ActivityListQuery,
      response: { 200: ListEnvelope(Type.Ref(TaskActivity)), ...errorResponses(404) },
    },
    config: read,
  }, async (request) => {
    const { data, pagination } = await tasks.listActivities(ctx, principalOf(request), request.params.task_key, pageRequest(request.query));
    return list(data, pagination);
  });

  app.post('/api/v1/tasks/:task_key/assign/', {
    schema: {
      tags,
      summary: 'Set or clear the assignee (a member of the project)',
      params: TaskKeyParams,
      headers: IfMatchHeaders,
      body: AssignBody,
      response: { 200: one, ...errorResponses(404, 412) },
    },
    config: write,
  }, async (request, reply) =>
    sendWrittenTask(ctx, request, reply, (beforeCommit) =>
      tasks.assignTask(ctx, callerOf(request), request.params.task_key, request.body.assignee, request.headers['if-match'], beforeCommit),
    ),
  );

  app.post('/api/v1/tasks/:task_key/follow/', {
    schema: {
      tags,
      summary: 'Follow the task as the token\'s account (idempotent)',
      params: TaskKeyParams,
      response: { 200: Envelope(Type.Ref(FollowState)), ...errorResponses(404) },
    },
    config: write,
  }, async (request, reply) => {
    const response = responseStoredWithWork(ctx, request, reply, ok<FollowStateJson>);
    return response.send(await tasks.follow(ctx, principalOf(request), request.params.task_key, response.beforeCommit));
  });

  app.delete('/api/v1/tasks/:task_key/follow/', {
    schema: {
      tags,
      summary: 'Stop following the task (idempotent)',
      params: TaskKeyParams,
      response: { 204: Type.Null({ description: 'Not following' }), ...errorResponses(404) },
    },
    config: write,
  }, async (request, reply) => {
    await tasks.unfollow(ctx, principalOf(request), request.params.task_key);
    return reply.code(204).send(null);
  });

  app.get('/api/v1/tasks/:task_key/followers/', {
    schema: {
      tags,
      summary: 'Who follows the task',
      params: TaskKeyParams,
      querystring: FollowerListQuery,
      response: { 200: ListEnvelope(Type.Ref(TaskFollower)), ...errorResponses(404) },
    },
    config: read,
  }, async (request) => {
    const { data, pagination } = await tasks.listFollowers(ctx, principalOf(request), request.params.task_key, pageRequest(request.query));
    return list(data, pagination);
  });

  app.get('/api/v1/tasks/:task_key/subtasks/', {
    schema: {
      tags,
      summary: 'The task\'s direct subtasks',
      params: TaskKeyParams,
      querystring: SubtaskListQuery,
      response: { 200: ListEnvelope(Type.Ref(Task)), ...errorResponses(404) },
    },
    config: read,
  }, async (request) => {
    const { data, pagination } = await tasks.listSubtasks(ctx, principalOf(request), request.params.task_key, pageRequest(request.query));
    return list(data, pagination);
  });

  app.post('/api/v1/tasks/:task_key/subtasks/', {
    schema: {
      tags,
      summary: 'Create a subtask (the task-create body; same project, parent set)',
      params: TaskKeyParams,
      body: SubtaskCreateBody,
      response: { 201: one, ...errorResponses(404) },
    },
    config: write,
  }, async (request, reply) => {
    reply.code(201);
    return sendWrittenTask(ctx, request, reply, (beforeCommit) => tasks.createSubtask(ctx, callerOf(request), request.params.task_key, request.body, beforeCommit));
  });
}
