import { Type } from '@sinclair/typebox';
import { DisplayName, PaginationQuery, Timestamp } from '../../http/schemas.ts';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const Description = Type.String({ maxLength: 65536 });

export const StatusCategory = Type.Union([Type.Literal('todo'), Type.Literal('in_progress'), Type.Literal('done')], {
  description:
    'What the status means for worklists, escalation and "open" filters; they use the category, never the name.',
});

export const Status = Type.Object(
  {
    id: Type.Integer(),
    project: Type.Integer({ description: 'Project id.' }),
    name: Type.String({ description: 'Unique in the project. Tasks carry the status by this name.' }),
    category: StatusCategory,
    position: Type.Integer({ description: 'Board column order, 0-based. Changes only through reorder.' }),
    is_default: Type.Boolean({ description: 'New tasks start here. The default status cannot be deleted.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Status', title: 'Status' },
);

export const StatusListQuery = Type.Object({
  ...PaginationQuery,
  project: Type.Optional(Type.Integer({ minimum: 1, description: 'Project id filter.' })),
  category: Type.Optional(StatusCategory),
});

export const StatusCreateBody = Type.Object(
  {
    project: Id,
    name: DisplayName,
    category: StatusCategory,
    position: Type.Optional(
      Type.Integer({
        minimum: 0,
        description: '0-based board position; later statuses move right. Omitted or past the end: appended.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const StatusUpdateBody = Type.Object(
  { name: Type.Optional(DisplayName), category: Type.Optional(StatusCategory) },
  { additionalProperties: false, description: 'Omitted fields keep their values. Order changes go through reorder.' },
);

export const StatusReorderBody = Type.Object(
  {
    project: Id,
    statuses: Type.Array(Id, {
      uniqueItems: true,
      maxItems: 500,
      description: 'Every status id of the project, exactly once, in the new board order.',
    }),
  },
  { additionalProperties: false },
);

export const WorkflowTransition = Type.Object(
  {
    id: Type.Integer(),
    from_status: Type.Integer({ description: 'Status id.' }),
    to_status: Type.Integer({ description: 'Status id.' }),
    from_status_name: Type.String(),
    to_status_name: Type.String(),
    name: Type.String(),
  },
  { $id: 'WorkflowTransition', title: 'WorkflowTransition' },
);

export const Transition = Type.Object(
  {
    id: Type.Integer(),
    workflow: Type.Integer({ description: 'Workflow id.' }),
    from_status: Type.Integer({ description: 'Status id.' }),
    to_status: Type.Integer({ description: 'Status id.' }),
    from_status_name: Type.String(),
    to_status_name: Type.String(),
    name: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Transition', title: 'Transition' },
);

export const TransitionListQuery = Type.Object({
  ...PaginationQuery,
  workflow: Type.Optional(Type.Integer({ minimum: 1, description: 'Workflow id filter.' })),
});

const TransitionName = Type.String({ minLength: 1, maxLength: 200, description: 'Defaults to "<from> → <to>".' });

export const TransitionCreateBody = Type.Object(
  { workflow: Id, from_status: Id, to_status: Id, name: Type.Optional(TransitionName) },
  { additionalProperties: false },
);

export const TransitionUpdateBody = Type.Object(
  { from_status: Type.Optional(Id), to_status: Type.Optional(Id), name: Type.Optional(TransitionName) },
  { additionalProperties: false, description: 'Omitted fields keep their values. The workflow cannot change.' },
);

export const Workflow = Type.Object(
  {
    id: Type.Integer(),
    project: Type.Integer({ description: 'Project id.' }),
    name: Type.String({ description: 'Unique in the project.' }),
    description: Type.String(),
    active: Type.Boolean({ description: "True for the one workflow that constrains the project's status changes." }),
    transitions: Type.Array(Type.Ref(WorkflowTransition), { description: 'Every permitted move, ordered by id.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Workflow', title: 'Workflow' },
);

export const WorkflowListQuery = Type.Object({
  ...PaginationQuery,
  project: Type.Optional(Type.Integer({ minimum: 1, description: 'Project id filter.' })),
});

export const WorkflowCreateBody = Type.Object(
  {
    project: Id,
    name: DisplayName,
    description: Type.Optional(Description),
    active: Type.Optional(
      Type.Boolean({
        default: false,
        description: "true makes it the project's workflow at once (it starts without transitions).",
      }),
    ),
  },
  { additionalProperties: false },
);

export const WorkflowUpdateBody = Type.Object(
  {
    name: Type.Optional(DisplayName),
    description: Type.Optional(Description),
    active: Type.Optional(
      Type.Boolean({
        description:
          "true makes this the project's workflow; false is refused on the active one (activate another instead).",
      }),
    ),
  },
  { additionalProperties: false, description: 'Omitted fields keep their values.' },
);

export const ProjectOption = (id: string, what: string) =>
  Type.Object(
    {
      id: Type.Integer(),
      name: Type.String({ description: `Tasks carry the ${what} by this name.` }),
      position: Type.Integer({ description: 'Display order, 0-based.' }),
      is_default: Type.Boolean({ description: `New tasks get this ${what} when none is given.` }),
    },
    { $id: id, title: id },
  );

export const Priority = ProjectOption('Priority', 'priority');
export const TaskType = ProjectOption('TaskType', 'task type');
