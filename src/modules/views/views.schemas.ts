import { type Static, Type } from '@sinclair/typebox';
import { PaginationQuery, Timestamp } from '../../http/schemas.ts';
import { QueryText, TimeZone } from '../query/query.schemas.ts';

/** What a view may group its tasks by, and the task fields it may show as columns. */
export const GROUP_BY = [
  'status',
  'status_category',
  'assignee',
  'priority',
  'task_type',
  'label',
  'milestone',
  'sprint',
  'project',
  'parent',
] as const;
export const COLUMNS = [
  'key',
  'title',
  'project',
  'status',
  'status_category',
  'task_type',
  'priority',
  'assignee',
  'labels',
  'due_date',
  'start_date',
  'estimate',
  'milestone',
  'sprint',
  'parent',
  'created_by',
  'created_at',
  'updated_at',
  'time_spent_minutes',
] as const;
export const DEFAULT_COLUMNS = ['key', 'title', 'status', 'assignee', 'priority', 'due_date'];

const Name = Type.String({ minLength: 1, maxLength: 100 });
const Layout = Type.Union(
  [Type.Literal('list'), Type.Literal('board'), Type.Literal('calendar'), Type.Literal('timeline')],
  {
    description:
      'How the app shows the tasks: a list, a board with a column per value of `group_by`, a calendar (tasks on their due date, or from start to due), or a timeline (bars from start to due, in rows by `group_by`).',
  },
);
const GroupBy = Type.Union([Type.Union(GROUP_BY.map((g) => Type.Literal(g))), Type.Null()], {
  description: "The field the tasks are grouped by (a board's columns, a list's sections); null: none.",
});
const Columns = Type.Array(Type.Union(COLUMNS.map((c) => Type.Literal(c))), {
  maxItems: COLUMNS.length,
  uniqueItems: true,
  description: "Task fields shown, in order (a list's columns, a board card's lines).",
});
const ProjectKey = Type.Union([Type.String({ pattern: '^[A-Z][A-Z0-9]{1,9}$' }), Type.Null()], {
  description: 'The project the view belongs to (its query runs within it), or null for a view across projects.',
});
const Shared = Type.Boolean({
  description:
    'false: only its creator sees it. true: everyone who sees its project, or the whole organization for a view of no project.',
});

export const View = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    query: Type.String({ description: 'A query (docs/api/query-language.md).' }),
    layout: Layout,
    group_by: GroupBy,
    columns: Type.Array(Type.String()),
    project: ProjectKey,
    shared: Type.Boolean(),
    created_by: Type.Object({ id: Type.Integer(), name: Type.String(), handle: Type.String() }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'View', title: 'View' },
);
export type ViewJson = Static<typeof View>;

export const ViewCreateBody = Type.Object(
  {
    name: Name,
    query: Type.Optional(Type.Union([QueryText], { default: '' })),
    layout: Type.Optional(Type.Union([Layout], { default: 'list' })),
    group_by: Type.Optional(GroupBy),
    columns: Type.Optional(Columns),
    project: Type.Optional(ProjectKey),
    shared: Type.Optional(Type.Union([Shared], { default: false })),
  },
  { additionalProperties: false },
);
export type ViewCreateInput = Static<typeof ViewCreateBody>;

export const ViewPatchBody = Type.Object(
  {
    name: Type.Optional(Name),
    query: Type.Optional(QueryText),
    layout: Type.Optional(Layout),
    group_by: Type.Optional(GroupBy),
    columns: Type.Optional(Columns),
    project: Type.Optional(ProjectKey),
    shared: Type.Optional(Shared),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type ViewPatchInput = Static<typeof ViewPatchBody>;

export const ViewIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2147483647 }) });

export const ViewListQuery = Type.Object({
  ...PaginationQuery,
  project: Type.Optional(
    Type.String({
      pattern: '^([A-Z][A-Z0-9]{1,9}|none)$',
      description: 'Views of this project only; `none` for views across projects.',
    }),
  ),
});

export const ViewTasksQuery = Type.Object({
  ...(({ ordering: _ordering, ...paging }) => paging)(PaginationQuery),
  tz: Type.Optional(TimeZone),
});
