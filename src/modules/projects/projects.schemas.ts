import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/schemas.ts';

export const ProjectKey = Type.String({
  pattern: '^[A-Z][A-Z0-9]{1,9}$',
  description: '2-10 uppercase letters or digits, starting with a letter. Unique in the workspace; immutable.',
  examples: ['WEB'],
});
/** Path parameters of the project-scoped routes (`/projects/{project_key}/...`). */
export const ProjectKeyParams = Type.Object({ project_key: ProjectKey });

const Name = Type.String({ minLength: 1, maxLength: 200 });
const Description = Type.String({ maxLength: 65536 });
const EstimateUnit = Type.Union([Type.Literal('points'), Type.Literal('hours')], {
  description: "What the project's task estimates count (`estimate`); `points` unless set.",
});
const ProjectRole = Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('viewer')]);

export const Project = Type.Object(
  {
    id: Type.Integer(),
    key: ProjectKey,
    name: Type.String(),
    description: Type.String(),
    workflow: Type.Union([Type.Integer(), Type.Null()], {
      description: 'Id of the workflow that constrains status changes.',
    }),
    default_status: Type.Union([Type.String(), Type.Null()]),
    default_task_type: Type.Union([Type.String(), Type.Null()]),
    default_priority: Type.Union([Type.String(), Type.Null()]),
    estimate_unit: EstimateUnit,
    role: Type.Union([ProjectRole], { description: "The caller's role in this project." }),
    created_by: Type.Union([Type.Integer(), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Project', title: 'Project' },
);

export const ProjectCreateBody = Type.Object(
  { name: Name, key: ProjectKey, description: Type.Optional(Description) },
  { additionalProperties: false },
);

const changeFields = {
  key: Type.Optional(Type.String({ description: 'Accepted only when equal to the current key (keys are immutable).' })),
  description: Type.Optional(Description),
  default_status: Type.Optional(Type.String({ minLength: 1 })),
  default_task_type: Type.Optional(Type.String({ minLength: 1 })),
  default_priority: Type.Optional(Type.String({ minLength: 1 })),
  estimate_unit: Type.Optional(EstimateUnit),
};
export const ProjectPutBody = Type.Object({ name: Name, ...changeFields }, { additionalProperties: false });
export const ProjectPatchBody = Type.Object(
  { name: Type.Optional(Name), ...changeFields },
  { additionalProperties: false },
);

export const Membership = Type.Object(
  {
    id: Type.Integer(),
    project: Type.Integer({ description: 'Project id.' }),
    project_key: Type.String(),
    user: Type.Integer({ description: 'User id (humans and service accounts share one id space).' }),
    user_name: Type.String(),
    user_handle: Type.String({ description: "The member's handle (how people mention and query them)." }),
    user_kind: Type.Union([Type.Literal('human'), Type.Literal('service')]),
    role: ProjectRole,
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'Membership', title: 'Membership' },
);

export const MembershipCreateBody = Type.Object(
  {
    project: Type.Integer({ minimum: 1 }),
    user: Type.Integer({ minimum: 1 }),
    role: Type.Optional(Type.Union([ProjectRole], { default: 'member' })),
  },
  { additionalProperties: false },
);
export const MembershipPutBody = Type.Object({ role: ProjectRole }, { additionalProperties: false });
export const MembershipPatchBody = Type.Object({ role: Type.Optional(ProjectRole) }, { additionalProperties: false });
