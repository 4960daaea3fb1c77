import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuery, Timestamp } from '../../http/schemas.ts';
import { TaskKey } from '../tasks/task.schemas.ts';

/** A link type as seen from one task; `blocked_by` and `duplicated_by` are the other ends of `blocks` and `duplicates`. */
export const LINK_KINDS = ['blocks', 'blocked_by', 'relates_to', 'duplicates', 'duplicated_by'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];

const LinkKindSchema = Type.Union(
  LINK_KINDS.map((kind) => Type.Literal(kind)),
  { description: "blocks, blocked_by, relates_to, duplicates or duplicated_by, read from this task's side." },
);

export const TaskLink = Type.Object(
  {
    id: Type.Integer({ description: 'Link id: the same under both tasks.' }),
    type: LinkKindSchema,
    task: Type.Object(
      {
        key: Type.String(),
        title: Type.String(),
        status: Type.String({ description: 'Status name.' }),
      },
      { description: 'The task at the other end.' },
    ),
    created_by: Type.Union([Type.Integer(), Type.Null()], { description: 'User id of whoever created the link.' }),
    created_at: Timestamp,
  },
  { $id: 'TaskLink', title: 'TaskLink' },
);
export type TaskLinkJson = Static<typeof TaskLink>;

export const LinkCreateBody = Type.Object(
  {
    task: Type.Union([TaskKey], {
      description: 'Key of the task at the other end; it may be in another project you can see.',
    }),
    type: LinkKindSchema,
  },
  { additionalProperties: false },
);
export type LinkCreateInput = Static<typeof LinkCreateBody>;

export const LinkListQuery = Type.Object({
  ...PaginationQuery,
  ordering: Type.Optional(
    Type.String({ maxLength: 200, description: 'created_at or -created_at (default: oldest first).' }),
  ),
});

export const LinkParams = Type.Object({
  task_key: TaskKey,
  id: Type.Integer({ minimum: 1, maximum: 2147483647 }),
});
