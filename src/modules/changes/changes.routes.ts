import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { CursorPagination, errorResponses, Timestamp } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { Task } from '../tasks/task.schemas.ts';
import { QueryText, TimeZone } from '../query/query.schemas.ts';
import { readChanges } from './changes.service.ts';

const changeFields = {
  id: Type.Integer({ description: 'Position in the feed (primary key).' }),
  key: Type.String({ description: 'Task key.' }),
  changed_at: Timestamp,
};

const TaskWrittenChange = Type.Object(
  {
    ...changeFields,
    action: Type.Union([Type.Literal('created'), Type.Literal('updated')]),
    task: Type.Ref(Task, { description: 'The task as it was right after the change.' }),
  },
  { $id: 'TaskWrittenChange', title: 'TaskWrittenChange', additionalProperties: false },
);

const TaskDeletedChange = Type.Object(
  { ...changeFields, action: Type.Literal('deleted') },
  {
    $id: 'TaskDeletedChange',
    title: 'TaskDeletedChange',
    additionalProperties: false,
    description: 'A deletion carries no task.',
  },
);

const TaskLeftChange = Type.Object(
  { ...changeFields, action: Type.Literal('left') },
  {
    $id: 'TaskLeftChange',
    title: 'TaskLeftChange',
    additionalProperties: false,
    description: 'With `q` only: the task matched the query right before this change and no longer does. No task.',
  },
);

/** `task` depends on `action`: present for created and updated, absent for deleted and left. */
const ChangeRecord = Type.Union([Type.Ref(TaskWrittenChange), Type.Ref(TaskDeletedChange), Type.Ref(TaskLeftChange)], {
  $id: 'ChangeRecord',
  title: 'ChangeRecord',
  discriminator: {
    propertyName: 'action',
    mapping: {
      created: '#/components/schemas/TaskWrittenChange',
      updated: '#/components/schemas/TaskWrittenChange',
      deleted: '#/components/schemas/TaskDeletedChange',
      left: '#/components/schemas/TaskLeftChange',
    },
  },
});

export const changesModels = [TaskWrittenChange, TaskDeletedChange, TaskLeftChange, ChangeRecord];

const DESCRIPTION = `The only endpoint that reports task deletions. Always cursor mode, ordered by \`id\`
(not by \`changed_at\`, which is therefore not monotonic across a walk: keep the maximum seen).
Walk with \`next_cursor\` until \`has_more\` is false, apply \`created\`/\`updated\` as upserts and
\`deleted\` as deletes (applying a change twice is harmless), and store your high-water mark only
after the whole walk succeeded.

With \`q\` (a query) the feed lists the changes of tasks that match it right after the change
(deletions: right before), and one \`left\` change (no task) when a task stops matching: apply
\`left\` as a delete.

With \`q\` (a query) the feed lists the changes of tasks that match it right after the change
(deletions: right before), and one \`left\` change (no task) when a task stops matching: apply
\`left\` as a delete.

\`since\` (ISO 8601) keeps changes with \`changed_at\` at or after it. Send \`Z\` or an escaped
\`%2B00:00\`: an unescaped \`+\` decodes to a space. **When \`since\` does not parse, the filter is
skipped and every change is returned**; the response then carries
\`X-Since-Ignored: true\` and \`data.since\` is null. Only changes of projects the token can see
now are listed. Counts against the normal rate limit.

Retention compacts the feed: a record goes once a later record of its task supersedes it and it
is older than the retention (90 days by default), so every task keeps its latest record and a
walk from the start copies every task. Deletion records older than the retention go too; a walk
that could have missed one (its \`since\` is before \`details.purged_before\`, or such records
went during the walk) is refused with \`410 RESYNC_REQUIRED\`: drop your copy and walk again from
the start without \`since\`.`;

export function registerChangesRoutes(app: Api, ctx: AppContext): void {
  app.get(
    '/api/v1/changes/tasks/',
    {
      schema: {
        tags: ['Changes feed'],
        summary: 'Incremental task sync: creations, updates and deletions',
        description: DESCRIPTION,
        querystring: Type.Object({
          since: Type.Optional(
            Type.String({ maxLength: 100, description: 'ISO 8601 timestamp, e.g. 2026-11-21T10:15:30.123456Z.' }),
          ),
          cursor: Type.Optional(
            Type.String({ maxLength: 200, description: 'From next_cursor; empty or absent starts at the beginning.' }),
          ),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'Default 50, maximum 200.' })),
          page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'Alias of `limit`.' })),
          q: Type.Optional(
            Type.Union([QueryText], {
              description:
                'Only changes of tasks matching this query (docs/api/query-language.md; ORDER BY is ignored), plus one `left` change when a task stops matching. A page may then hold fewer than `limit` changes, even none, while `has_more` is true. Does not count against the search rate limit.',
            }),
          ),
          tz: Type.Optional(TimeZone),
        }),
        response: {
          200: Type.Object(
            {
              success: Type.Literal(true),
              data: Type.Object({
                changes: Type.Array(Type.Ref(ChangeRecord)),
                since: Type.Union([Timestamp, Type.Null()], {
                  description: 'The since filter applied, normalised to UTC; null when none was applied.',
                }),
              }),
              pagination: Type.Ref(CursorPagination),
            },
            {
              headers: {
                'X-Since-Ignored': {
                  type: 'string',
                  enum: ['true'],
                  description: 'Present when `since` did not parse and was ignored: the whole feed is returned.',
                },
              },
            },
          ),
          ...errorResponses(410),
        },
      },
      config: { scope: 'tasks:read' },
    },
    async (request, reply) => {
      const { since, cursor, limit, page_size, q, tz } = request.query;
      const result = await readChanges(ctx, principalOf(request), {
        since,
        cursor: cursor ?? '',
        limit: limit ?? page_size,
        q,
        tz,
      });
      if (since !== undefined && result.since === null) reply.header('x-since-ignored', 'true');
      // Snapshots are stored as JSON text and spliced in verbatim: no parse and re-serialize per row.
      return reply.type('application/json; charset=utf-8').send(result.body as never);
    },
  );
}
