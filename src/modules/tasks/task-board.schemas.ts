import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Timestamp } from '../../http/schemas.ts';
import { TaskListQuery } from './task.schemas.ts';

/** Cards per column of one board read: enough to fill a tall screen, small enough to answer fast. */
export const DEFAULT_CARDS_PER_COLUMN = 50;

const StatusCategory = Type.Union([Type.Literal('todo'), Type.Literal('in_progress'), Type.Literal('done')]);
const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});

const { assignee, task_type, priority, label, milestone, sprint, parent } = TaskListQuery.properties;

export const BoardQuery = Type.Object({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 200,
      description: `Cards per column, default ${DEFAULT_CARDS_PER_COLUMN}, maximum 200.`,
    }),
  ),
  status: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description: 'One status name: only that column (with `cursor`, its next page).',
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: 200,
      description: "A column's `next_cursor`: the cards after it. Needs `status`.",
    }),
  ),
  text: Type.Optional(
    Type.String({
      maxLength: 200,
      description:
        'Cards whose title holds every word of it (case-insensitive), or whose key holds it (`WEB-1` finds WEB-1, WEB-10, …).',
    }),
  ),
  assignee,
  task_type,
  priority,
  label,
  milestone,
  sprint,
  parent,
});
export type BoardQueryInput = Static<typeof BoardQuery>;

/** What a card shows: a task without its description and custom fields, with the version its ETag names. */
export const BoardCard = Type.Object(
  {
    key: Type.String({ description: 'Task key, e.g. WEB-12.' }),
    project: Type.String({ description: 'Project key.' }),
    title: Type.String(),
    task_type: Type.String(),
    priority: Type.String(),
    status: Type.String(),
    status_category: StatusCategory,
    assignee: Nullable(Type.Integer(), 'User id of the assignee.'),
    parent: Nullable(Type.String(), 'Key of the parent task: the card is a subtask.'),
    due_date: Nullable(Type.String({ format: 'date' })),
    labels: Type.Array(Type.String(), { description: 'Label names, sorted.' }),
    milestone: Nullable(Type.Integer()),
    sprint: Nullable(Type.Integer()),
    version: Type.Integer({
      minimum: 1,
      description:
        'The task\'s version: its ETag is `"v<version>"`, and a live `change` event carries the version it produced, so a client that already holds it reads nothing.',
    }),
    updated_at: Timestamp,
  },
  { $id: 'BoardCard', title: 'BoardCard' },
);

export const BoardColumn = Type.Object(
  {
    status: Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      category: StatusCategory,
      position: Type.Integer(),
    }),
    count: Type.Integer({ minimum: 0, description: 'Tasks in this status matching the filters.' }),
    cards: Type.Array(Type.Ref(BoardCard), { description: 'The first cards (or those after `cursor`), oldest first.' }),
    next_cursor: Type.String({ description: 'Send it back as `cursor` with this `status` for the next cards.' }),
    has_more: Type.Boolean(),
  },
  { $id: 'BoardColumn', title: 'BoardColumn' },
);

export const Board = Type.Object(
  {
    columns: Type.Array(Type.Ref(BoardColumn), { description: "The project's statuses in board order." }),
  },
  { $id: 'Board', title: 'Board' },
);
export type BoardJson = Static<typeof Board>;
