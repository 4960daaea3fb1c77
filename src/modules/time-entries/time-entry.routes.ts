import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { listOf, ok } from '../../http/envelope.ts';
import { commitNoContent } from '../../http/no-content.ts';
import { pageRequest } from '../../http/pagination.ts';
import { commitWrite } from '../../http/unit-of-work.ts';
import { Envelope, errorResponses, IdParams, ListEnvelope } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { TaskKeyParams } from '../tasks/task.schemas.ts';
import { callerOf } from '../tasks/task.http.ts';
import {
  TimeEntry,
  TimeEntryCreateBody,
  type TimeEntryJson,
  TimeEntryListQuery,
  TimeEntryUpdateBody,
} from './time-entry.schemas.ts';
import * as entries from './time-entry.service.ts';

export const timeEntryModels = [TimeEntry];

export function registerTimeEntryRoutes(app: Api, ctx: AppContext): void {
  const tags = ['Time entries'];
  const one = Envelope(Type.Ref(TimeEntry));
  const read = { scope: 'tasks:read' } as const;
  const write = { scope: 'tasks:write' } as const;
  const totals =
    "The task's `time_spent_minutes` is the sum of its entries; a write that changes it also bumps the task's version (ETag) and `updated_at`, and records a change (changes feed) and `task.updated` with `changes.time_spent_minutes`.";

  app.get(
    '/api/v1/tasks/:task_key/time-entries/',
    {
      schema: {
        tags,
        summary: 'Time logged on a task (by date, oldest first, by default)',
        params: TaskKeyParams,
        querystring: TimeEntryListQuery,
        response: { 200: ListEnvelope(Type.Ref(TimeEntry)), ...errorResponses(404) },
      },
      config: read,
    },
    async (request) =>
      listOf(
        await entries.listTimeEntries(ctx, principalOf(request), request.params.task_key, pageRequest(request.query)),
      ),
  );

  app.post(
    '/api/v1/tasks/:task_key/time-entries/',
    {
      schema: {
        tags,
        summary: "Log time on a task (for the token's account)",
        description: `Project viewers cannot log time (403). ${totals}`,
        params: TaskKeyParams,
        body: TimeEntryCreateBody,
        response: { 201: one, ...errorResponses(404) },
      },
      config: write,
    },
    async (request, reply) => {
      reply.code(201);
      return commitWrite(
        ctx,
        request,
        reply,
        (tx) => entries.createTimeEntry(tx, callerOf(request), request.params.task_key, request.body),
        ok<TimeEntryJson>,
      );
    },
  );

  app.get(
    '/api/v1/time-entries/:id/',
    {
      schema: { tags, summary: 'Read a time entry', params: IdParams, response: { 200: one, ...errorResponses(404) } },
      config: read,
    },
    async (request) => ok(await entries.getTimeEntry(ctx, principalOf(request), request.params.id)),
  );

  app.put(
    '/api/v1/time-entries/:id/',
    {
      schema: {
        tags,
        summary: 'Change a time entry (the account that logged it only)',
        description: `Any subset of minutes, date and note. Only the entry's own account may change it (403 FORBIDDEN otherwise). ${totals}`,
        params: IdParams,
        body: TimeEntryUpdateBody,
        response: { 200: one, ...errorResponses(404) },
      },
      config: write,
    },
    async (request, reply) =>
      commitWrite(
        ctx,
        request,
        reply,
        (tx) => entries.updateTimeEntry(tx, callerOf(request), request.params.id, request.body),
        ok<TimeEntryJson>,
      ),
  );

  app.delete(
    '/api/v1/time-entries/:id/',
    {
      schema: {
        tags,
        summary: 'Delete a time entry (the account that logged it only)',
        description: totals,
        params: IdParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(404) },
      },
      config: write,
    },
    async (request, reply) =>
      commitNoContent(ctx, reply, (tx) => entries.deleteTimeEntry(tx, callerOf(request), request.params.id)),
  );
}
