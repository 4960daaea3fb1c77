import { Type } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { principalOf } from '../../http/auth-hook.ts';
import { CursorPagination, errorResponses, Timestamp } from '../../http/schemas.ts';
import type { Api } from '../../http/types.ts';
import { Task } from '../tasks/task.schemas.ts';
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

/** `task` depends on `action`: present for created and updated, absent for deleted. */
const ChangeRecord = Type.Union([Type.Ref(TaskWrittenChange), Type.Ref(TaskDeletedChange)], {
  $id: 'ChangeRecord',
  title: 'ChangeRecord',
  discriminator: {
    propertyName: 'action',
    mapping: {
      created: '#/components/schemas/TaskWrittenChange',
      updated: '#/components/schemas/TaskWrittenChange',
      deleted: '#/components/schemas/TaskDeletedChange',
    },
  },
});

export const changesModels = [TaskWrittenChange, TaskDeletedChange, ChangeRecord];

const DESCRIPTION = `The only endpoint that reports task deletions. Always cursor mode, ordered by \`id\`
(not by \`changed_at\`, which is therefore not monotonic across a walk: keep the maximum seen).
Walk with \`next_cursor\` until \`has_more\` is false, apply \`created\`/\`updated\` as upserts and
\`deleted\` as deletes (applying a change twice is harmless), and store your high-water mark only
after the whole walk succeeded.

\`since\` (ISO 8601) keeps changes with \`changed_at\` at or after it. Send \`Z\` or an escaped
\`%2B00:00\`: an unescaped \`+\` decodes to a space. **When \`since\` does not parse, the filter is
skipped and every change is returned**; the response then carries
\`X-Since-Ignored: true\` and \`data.since\` is null. Only changes of projects the token can see
now are listed. Counts against the normal rate limit.`;

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
          ...errorResponses(),
        },
      },
      config: { scope: 'tasks:read' },
    },
    async (request, reply) => {
      const { since, cursor, limit, page_size } = request.query;
      const result = await readChanges(ctx, principalOf(request), {
        since,
        cursor: cursor ?? '',
        limit: limit ?? page_size,
      });
      if (since !== undefined && result.since === null) reply.header('x-since-ignored', 'true');
      // Snapshots are stored as JSON text and spliced in verbatim: no parse and re-serialize per row.
      return reply.type('application/json; charset=utf-8').send(result.body as never);
    },
  );
}
