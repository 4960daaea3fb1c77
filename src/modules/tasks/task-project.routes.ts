import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { pageRequest } from '../../http/pagination.ts';
import { Envelope, errorResponses, ListEnvelope } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { ProjectKeyParams } from '../projects/projects.schemas.ts';
import { bulkValidationError } from './bulk-validation.ts';
import { callerOf, OneTask, read, tags, withEtag, write } from './task.http.ts';
import { BulkCreateBody, BulkUpdateBody, Task, TaskCreateBody, type TaskJson, TaskListQuery } from './task.schemas.ts';
import { bulkCreate, bulkUpdate } from './task-bulk.service.ts';
import { createTask } from './task-lifecycle.service.ts';
import { listTasks } from './task-read.service.ts';

/** A project's tasks: list, create one, create or update many at once. */
export function registerProjectTaskRoutes(app: Api, ctx: AppContext): void {
  const many = Envelope(Type.Array(Type.Ref(Task)));

  app.get(
    '/api/v1/projects/:project_key/tasks/',
    {
      schema: {
        tags,
        summary: 'List the tasks of a project, with filters',
        params: ProjectKeyParams,
        querystring: TaskListQuery,
        response: { 200: ListEnvelope(Type.Ref(Task)), ...errorResponses(404) },
      },
      config: read,
    },
    async (request) =>
      listOf(
        await listTasks(
          ctx,
          principalOf(request),
          request.params.project_key,
          request.query,
          pageRequest(request.query),
        ),
      ),
  );

  app.post(
    '/api/v1/projects/:project_key/tasks/',
    {
      schema: {
        tags,
        summary: 'Create a task (key PROJ-N; omitted fields take the project defaults)',
        params: ProjectKeyParams,
        body: TaskCreateBody,
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
        (tx) => createTask(tx, callerOf(request), request.params.project_key, request.body),
        withEtag(reply),
      );
    },
  );

  app.post(
    '/api/v1/projects/:project_key/tasks/bulk/',
    {
      schema: {
        tags,
        summary: 'Create up to 100 tasks, all or nothing',
        description:
          'One transaction: if any item is refused nothing is created, and `details.items` lists every refused item as `{index, code, message, fields}`. Each task gets its own events and change record. Counts as one request against the rate limit.',
        params: ProjectKeyParams,
        body: BulkCreateBody,
        response: { 201: many, ...errorResponses(404) },
      },
      attachValidation: true,
      config: write,
    },
    async (request, reply) => {
      if (request.validationError) throw bulkValidationError(request.validationError, request.body);
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => bulkCreate(tx, callerOf(request), request.params.project_key, request.body.tasks),
        ok<TaskJson[]>,
      );
    },
  );

  app.post(
    '/api/v1/projects/:project_key/tasks/bulk-update/',
    {
      schema: {
        tags,
        summary: 'Update up to 100 tasks of the project, all or nothing',
        description:
          'Each item is `{key, ...fields}` with the fields of PUT /tasks/{task_key}/. One transaction: if any item is refused nothing changes, and `details.items` lists every refused item as `{index, key, code, message, fields}` (an illegal status move has code INVALID_TRANSITION with `from` and `to`). Counts as one request against the rate limit.',
        params: ProjectKeyParams,
        body: BulkUpdateBody,
        response: { 200: many, ...errorResponses(404) },
      },
      attachValidation: true,
      config: write,
    },
    async (request, reply) => {
      if (request.validationError) throw bulkValidationError(request.validationError, request.body);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => bulkUpdate(tx, callerOf(request), request.params.project_key, request.body.tasks),
        ok<TaskJson[]>,
      );
    },
  );
}
