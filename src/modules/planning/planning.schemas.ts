import { type TProperties, type TSchema, Type } from '@sinclair/typebox';
import { DateString, DisplayName, PaginationQuery, Timestamp } from '../../http/schemas.ts';

const Description = Type.String({ maxLength: 65536 });
const ProjectKeyField = Type.String({ description: 'Key of the project it belongs to.' });
const TaskCount = Type.Integer({ description: 'Tasks that carry it now.' });
const NullableDate = Type.Union([DateString, Type.Null()]);
const Color = Type.String({
  pattern: '^#[0-9a-fA-F]{6}$',
  description: '`#rrggbb`; stored and returned in lowercase.',
  examples: ['#d73a4a'],
});

const UniqueName = Type.String({ description: 'Unique in the project.' });

/** What every label, milestone and sprint answers, with the kind's own properties between its name and its task count. */
function planningItem<N extends TSchema, P extends TProperties>(title: string, name: N, own: P) {
  return Type.Object(
    {
      id: Type.Integer(),
      project: ProjectKeyField,
      name,
      ...own,
      task_count: TaskCount,
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    { $id: title, title },
  );
}

export const LABEL_DEFAULT_COLOR = '#ededed';

export const Label = planningItem(
  'Label',
  Type.String({ description: 'Unique in the project. Tasks carry labels by name.' }),
  {
    color: Type.String({ description: '`#rrggbb`, lowercase.' }),
    description: Type.String(),
  },
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

export const Milestone = planningItem('Milestone', UniqueName, {
  description: Type.String(),
  due_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: '`YYYY-MM-DD` or null.' }),
  state: MilestoneState,
});

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

export const Sprint = planningItem('Sprint', UniqueName, {
  goal: Type.String(),
  start_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], { description: '`YYYY-MM-DD` or null.' }),
  end_date: Type.Union([Type.String({ format: 'date' }), Type.Null()], {
    description: '`YYYY-MM-DD` or null; never before `start_date`.',
  }),
  state: SprintState,
});

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
    carry_over_to: Type.Optional(
      Type.Integer({
        minimum: 1,
        description:
          'With `state: completed`: the id of a planned or active sprint of the project that the open tasks (status not in the done category) move to, each as a task update.',
      }),
    ),
  },
  { additionalProperties: false, description: 'Omitted fields keep their values; `null` clears a date.' },
);

export const LabelListQuery = Type.Object(PaginationQuery);
export const MilestoneListQuery = Type.Object({ ...PaginationQuery, state: Type.Optional(MilestoneState) });
export const SprintListQuery = Type.Object({ ...PaginationQuery, state: Type.Optional(SprintState) });
