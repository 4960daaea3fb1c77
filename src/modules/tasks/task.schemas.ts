import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PaginationQuery, Timestamp } from '../../http/schemas.ts';
import { CustomFieldValuesInput } from '../custom-fields/custom-fields.schemas.ts';
import { QueryParameters } from '../query/query.schemas.ts';

/** Subtasks nest at most this many levels: a top-level task is level 1. */
export const MAX_TASK_DEPTH = 5;
/** Items per bulk or bulk-update call. */
export const MAX_BULK_ITEMS = 100;

const MAX_ID = 2147483647;
const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});
const Id = Type.Integer({ minimum: 1, maximum: MAX_ID });

export const TaskKey = Type.String({
  pattern: '^[A-Z][A-Z0-9]{1,9}-[1-9][0-9]{0,9}$',
  description: 'Project key, a dash and the task number, e.g. WEB-12. Stable for the life of the task; never reused.',
  examples: ['WEB-12'],
});
export const TaskKeyParams = Type.Object({ task_key: TaskKey });

const StatusCategory = Type.Union([Type.Literal('todo'), Type.Literal('in_progress'), Type.Literal('done')]);
const DateOnly = Type.String({ format: 'date', description: 'YYYY-MM-DD' });

export const Task = Type.Object(
  {
    key: Type.String({ description: 'Public identifier, e.g. WEB-12. There is no numeric task id in the API.' }),
    project: Type.String({ description: 'Project key.' }),
    title: Type.String(),
    description: Type.String(),
    task_type: Type.String({ description: "Name of one of the project's task types." }),
    priority: Type.String({ description: "Name of one of the project's priorities." }),
    status: Type.String({ description: "Name of one of the project's statuses." }),
    status_category: Type.Union([StatusCategory], {
      description: 'Category of the status: use it for "open/closed" logic, never status names.',
    }),
    assignee: Nullable(Type.Integer(), 'User id of the assignee.'),
    parent: Nullable(Type.String(), 'Key of the parent task, null at top level.'),
    due_date: Nullable(DateOnly),
    start_date: Nullable(DateOnly, 'When work is planned to start; never after `due_date`.'),
    estimate: Nullable(
      Type.Number({ minimum: 0 }),
      "How big the task is, in the project's `estimate_unit` (points or hours); null: not estimated.",
    ),
    labels: Type.Array(Type.String(), { description: 'Label names, sorted.' }),
    milestone: Nullable(Type.Integer(), 'Milestone id.'),
    sprint: Nullable(Type.Integer(), 'Sprint id.'),
    custom_fields: Type.Record(Type.String(), Type.Unknown(), {
      description:
        'Custom field values keyed by field id, only fields that have a value: select holds an option id, multi_select a list of option ids sorted ascending.',
    }),
    time_spent_minutes: Type.Integer({
      minimum: 0,
      description:
        "Sum of the minutes of the task's time entries (read-only; log time through /tasks/{task_key}/time-entries/).",
    }),
    rollup: Nullable(
      Type.Object({
        estimate: Type.Number({ description: 'Sum of the estimates of the task and all its subtasks, at any depth.' }),
        done_estimate: Type.Number({ description: 'The part of `estimate` whose tasks are in a `done` status.' }),
        time_spent_minutes: Type.Integer({ description: 'Minutes logged on the task and all its subtasks.' }),
      }),
      "Totals over the task and its subtree (read-only), computed when read; null for a task without subtasks. A subtask's change does not change the parent's version, `updated_at` or ETag: read the parent again to refresh it.",
    ),
    created_by: Nullable(Type.Integer(), 'User id of the creator.'),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Task', title: 'Task' },
);
export type TaskJson = Static<typeof Task>;

/**
 * The fields a write may change, in task-JSON terms, each with where it is stored: a `tasks`
 * column, or the task's label set. The one list of them: the writer (task-writes.ts) takes its
 * columns from here, and their changes are recorded (activity rows, `changes` in task.updated).
 */
export const WRITABLE_FIELD_STORAGE = {
  title: 'title',
  description: 'description',
  task_type: 'task_type_id',
  priority: 'priority_id',
  status: 'status_id',
  assignee: 'assignee_id',
  due_date: 'due_date',
  start_date: 'start_date',
  estimate: 'estimate',
  labels: 'label_ids',
  milestone: 'milestone_id',
  sprint: 'sprint_id',
  parent: 'parent_id',
} as const;
export type WritableField = keyof typeof WRITABLE_FIELD_STORAGE;
export const WRITABLE_FIELDS = Object.keys(WRITABLE_FIELD_STORAGE) as WritableField[];

/** Read-only fields computed from the task's records; they change through those records, not PUT. */
export const DERIVED_FIELDS = ['time_spent_minutes'] as const;
/** Every field whose change is recorded in activity and in `changes` of task.updated. */
export type TrackedField = WritableField | (typeof DERIVED_FIELDS)[number];

const fields = {
  title: Type.String({ minLength: 1, maxLength: 500, description: '1-500 characters, not blank.' }),
  description: Type.String({ maxLength: 65536 }),
  task_type: Type.String({ minLength: 1, maxLength: 200, description: "Name of one of the project's task types." }),
  priority: Type.String({ minLength: 1, maxLength: 200, description: "Name of one of the project's priorities." }),
  assignee: Nullable(Id, 'User id; must be a member of the project. null: unassigned.'),
  due_date: Nullable(DateOnly),
  start_date: Nullable(DateOnly, 'When work is planned to start; must not be after `due_date`.'),
  estimate: Nullable(
    Type.Number({ minimum: 0, maximum: 1000000 }),
    "Non-negative, in the project's `estimate_unit` (points or hours). null: not estimated.",
  ),
  labels: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
    uniqueItems: true,
    maxItems: 100,
    description: "Names of the project's labels; replaces the whole set.",
  }),
  milestone: Nullable(Id, "Id of one of the project's milestones."),
  sprint: Nullable(Id, "Id of one of the project's sprints."),
  parent: Nullable(TaskKey, `Key of a task of the same project. Nesting is limited to ${MAX_TASK_DEPTH} levels.`),
  custom_fields: CustomFieldValuesInput,
};
const status = Type.String({
  minLength: 1,
  maxLength: 200,
  description: "Name of one of the project's statuses; the move must follow a transition of the project's workflow.",
});

const createFields = {
  title: fields.title,
  description: Type.Optional(fields.description),
  task_type: Type.Optional(fields.task_type),
  priority: Type.Optional(fields.priority),
  assignee: Type.Optional(fields.assignee),
  due_date: Type.Optional(fields.due_date),
  start_date: Type.Optional(fields.start_date),
  estimate: Type.Optional(fields.estimate),
  labels: Type.Optional(fields.labels),
  milestone: Type.Optional(fields.milestone),
  sprint: Type.Optional(fields.sprint),
  custom_fields: Type.Optional(fields.custom_fields),
};

export const TaskCreateBody = Type.Object(
  { ...createFields, parent: Type.Optional(fields.parent) },
  {
    additionalProperties: false,
    description:
      "Omitted task_type and priority take the project defaults; a new task always starts in the project's default status.",
  },
);
export type TaskCreateInput = Static<typeof TaskCreateBody>;

export const SubtaskCreateBody = Type.Object(createFields, {
  additionalProperties: false,
  description: 'The task-create body without `parent`: the path names the parent.',
});

const updateFields = {
  title: Type.Optional(fields.title),
  description: Type.Optional(fields.description),
  task_type: Type.Optional(fields.task_type),
  priority: Type.Optional(fields.priority),
  status: Type.Optional(status),
  assignee: Type.Optional(fields.assignee),
  due_date: Type.Optional(fields.due_date),
  start_date: Type.Optional(fields.start_date),
  estimate: Type.Optional(fields.estimate),
  labels: Type.Optional(fields.labels),
  milestone: Type.Optional(fields.milestone),
  sprint: Type.Optional(fields.sprint),
  parent: Type.Optional(fields.parent),
  custom_fields: Type.Optional(fields.custom_fields),
  force: Type.Optional(
    Type.Boolean({
      description:
        'true: write a `start_date` before the due date of an open blocker anyway (otherwise 422 SCHEDULE_CONFLICT).',
    }),
  ),
};

export const TaskUpdateBody = Type.Object(updateFields, {
  additionalProperties: false,
  description: 'Any subset of the writable fields; omitted fields keep their values and null clears a nullable one.',
});
export type TaskUpdateInput = Static<typeof TaskUpdateBody>;

export const AssignBody = Type.Object({ assignee: fields.assignee }, { additionalProperties: false });

export const BulkCreateBody = Type.Object(
  { tasks: Type.Array(TaskCreateBody, { minItems: 1, maxItems: MAX_BULK_ITEMS }) },
  { additionalProperties: false },
);
export const BulkUpdateBody = Type.Object(
  {
    tasks: Type.Array(Type.Object({ key: TaskKey, ...updateFields }, { additionalProperties: false }), {
      minItems: 1,
      maxItems: MAX_BULK_ITEMS,
    }),
  },
  { additionalProperties: false },
);

const IdOrNone = Type.String({ pattern: '^([1-9][0-9]{0,9}|none)$' });
const csv = (description: string) => Type.Optional(Type.String({ maxLength: 2000, description }));

const TaskOrdering = Type.Optional(
  Type.String({
    maxLength: 200,
    description:
      "Offset mode: created_at, updated_at, priority (by the project's priority order), due_date (no date sorts last), key (by number); `-` for descending. Default: key.",
  }),
);
export const SubtaskListQuery = Type.Object({ ...PaginationQuery, ordering: TaskOrdering });

/** GET /tasks/: a query across projects; its ORDER BY orders offset pages (newest first without one). */
const { ordering: _ordering, ...paging } = PaginationQuery;
export const TaskQueryListQuery = Type.Object({ ...paging, ...QueryParameters });

export const TaskListQuery = Type.Object({
  ...PaginationQuery,
  ordering: TaskOrdering,
  ...QueryParameters,
  status: csv('Status names, comma-separated (any of).'),
  status_category: Type.Optional(
    Type.String({
      pattern: '^(todo|in_progress|done)(,(todo|in_progress|done))*$',
      description: 'todo, in_progress, done; comma-separated.',
    }),
  ),
  assignee: Type.Optional(Type.Union([IdOrNone], { description: 'User id, or `none` for unassigned.' })),
  task_type: csv('Task type names, comma-separated.'),
  priority: csv('Priority names, comma-separated.'),
  label: csv('Label names, comma-separated: tasks carrying any of them.'),
  milestone: Type.Optional(Type.Union([IdOrNone], { description: 'Milestone id, or `none`.' })),
  sprint: Type.Optional(Type.Union([IdOrNone], { description: 'Sprint id, or `none`.' })),
  parent: Type.Optional(
    Type.String({
      pattern: '^([A-Z][A-Z0-9]{1,9}-[1-9][0-9]{0,9}|none)$',
      description: 'Parent task key, or `none` for top-level tasks.',
    }),
  ),
  updated_since: Type.Optional(
    Type.String({
      format: 'date-time',
      description: 'ISO 8601; tasks updated at or after it. Send `Z` or `%2B00:00`.',
    }),
  ),
  due_before: Type.Optional(Type.Union([DateOnly], { description: 'Due on or before this date.' })),
  due_after: Type.Optional(Type.Union([DateOnly], { description: 'Due on or after this date.' })),
});
export type TaskListFilters = Static<typeof TaskListQuery>;

export const TaskActivity = Type.Object(
  {
    id: Type.Integer(),
    action: Type.String({
      description:
        '`created`, `updated` (one row per changed field, including `time_spent_minutes` when time is logged), `commented` (`to` is the comment id), `linked` / `unlinked` (field `links`; the value is the link `{id, type, task}` seen from this task), or `mentioned_in` (`to` is `{task, comment}`: the description or comment of another task named this one; listed only to readers who see that task).',
    }),
    field: Nullable(Type.String(), 'The changed field, for `updated`.'),
    from: Type.Unknown({ description: 'Previous value as it appears in the task JSON.' }),
    to: Type.Unknown({ description: 'New value as it appears in the task JSON.' }),
    actor: Nullable(Type.Object({ id: Type.Integer(), name: Type.String() })),
    created_at: Timestamp,
  },
  { $id: 'TaskActivity', title: 'TaskActivity' },
);
export const ActivityListQuery = Type.Object({
  ...PaginationQuery,
  ordering: Type.Optional(
    Type.String({ maxLength: 200, description: 'created_at or -created_at (default: newest first).' }),
  ),
});

export const TaskFollower = Type.Object(
  {
    user: Type.Integer(),
    name: Type.String(),
    kind: Type.Union([Type.Literal('human'), Type.Literal('service')]),
    followed_at: Timestamp,
  },
  { $id: 'TaskFollower', title: 'TaskFollower' },
);
export const FollowerListQuery = Type.Object({
  ...PaginationQuery,
  ordering: Type.Optional(
    Type.String({ maxLength: 200, description: 'followed_at or -followed_at (default: oldest first).' }),
  ),
});

export const FollowState = Type.Object(
  {
    task: Type.String({ description: 'Task key.' }),
    user: Type.Integer({ description: "The token's account." }),
    following: Type.Boolean(),
    followed_at: Timestamp,
  },
  { $id: 'FollowState', title: 'FollowState' },
);
export type FollowStateJson = Static<typeof FollowState>;
