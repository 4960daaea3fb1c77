import { Type } from '@sinclair/typebox';
import { DateString, DisplayName, PaginationQuery, Timestamp } from '../../http/schemas.ts';

const Description = Type.String({ maxLength: 65536 });
const ProjectKeyField = Type.String({ description: 'Key of the project it belongs to.' });
const TaskCount = Type.Integer({ description: 'Tasks that carry it now.' });
const NullableDate = Type.Union([DateString, Type.Null()]);
const Color = Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '`#rrggbb`; stored and returned in lowercase.', examples: ['#d73a4a'] });

export const LABEL_DEFAULT_COLOR = '#ededed';

export const Label = Type.Object(
  {
    id: Type.Integer(),
    project: ProjectKeyField,
    name: Type.String({ description: 'Unique in the project. Tasks carry labels by name.' }),
    color: Type.String({ description: '`#rrggbb`, lowercase.' }),
    description: Type.String(),
    task_count: TaskCount,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Label', title: 'Label' },
);

export const LabelCreateBody = Type.Object(
  {
    name: DisplayName,
    color: Type.Optional(Type.Union([Color], { default: LABEL_DEFAULT_COLOR })),
    description: Type.Optional(Description),
  },
  { additionalProperties: false },
);

export const LabelUpdateBody = Type.Object(
  { name: Type.Optional(DisplayName), color: Type.Optional(Color), description: Type.Optional(Description) },
  { additionalProperties: false, description: 'Omitted fields keep their values.' },
);

const MilestoneState = Type.Union([Type.Literal('open'), Type.Literal('closed')]);

export const Milestone = Type.Object(
  {
    id: Type.Integer(),
    project: ProjectKeyField,
    name: Type.String({ description: 'Unique in the project.' }),
    description: Type.String(),
    due_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: '`YYYY-MM-DD` or null.' }),
    state: MilestoneState,
    task_count: TaskCount,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Milestone', title: 'Milestone' },
);

export const MilestoneCreateBody = Type.Object(
  {
    name: DisplayName,
    description: Type.Optional(Description),
    due_date: Type.Optional(NullableDate),
    state: Type.Optional(Type.Union([MilestoneState], { default: 'open' })),
  },
  { additionalProperties: false },
);

export const MilestoneUpdateBody = Type.Object(
  {
    name: Type.Optional(DisplayName),
    description: Type.Optional(Description),
    due_date: Type.Optional(NullableDate),
    state: Type.Optional(MilestoneState),
  },
  { additionalProperties: false, description: 'Omitted fields keep their values; `null` clears `due_date`.' },
);

const SprintState = Type.Union([Type.Literal('planned'), Type.Literal('active'), Type.Literal('completed')], {
  description: 'At most one sprint per project is `active` at a time.',
});

export const Sprint = Type.Object(
  {
    id: Type.Integer(),
    project: ProjectKeyField,
    name: Type.String({ description: 'Unique in the project.' }),
    goal: Type.String(),
    start_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: '`YYYY-MM-DD` or null.' }),
    end_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: '`YYYY-MM-DD` or null; never before `start_date`.' }),
    state: SprintState,
    task_count: TaskCount,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Sprint', title: 'Sprint' },
);

export const SprintCreateBody = Type.Object(
  {
    name: DisplayName,
    goal: Type.Optional(Description),
    start_date: Type.Optional(NullableDate),
    end_date: Type.Optional(NullableDate),
    state: Type.Optional(Type.Union([SprintState], { default: 'planned' })),
  },
  { additionalProperties: false },
);

export const SprintUpdateBody = Type.Object(
  {
    name: Type.Optional(DisplayName),
    goal: Type.Optional(Description),
    start_date: Type.Optional(NullableDate),
    end_date: Type.Optional(NullableDate),
    state: Type.Optional(SprintState),
  },
  { additionalProperties: false, description: 'Omitted fields keep their values; `null` clears a date.' },
);

export const LabelListQuery = Type.Object(PaginationQuery);
export const MilestoneListQuery = Type.Object({ ...PaginationQuery, state: Type.Optional(MilestoneState) });
export const SprintListQuery = Type.Object({ ...PaginationQuery, state: Type.Optional(SprintState) });
