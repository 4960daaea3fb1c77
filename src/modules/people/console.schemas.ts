import { Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/schemas.ts';
import { ALL_SCOPES } from '../../identity/scopes.ts';

/** Schemas of the organization console API (`/api/console/`): used by the web app, not published. */
const Role = Type.Union([Type.Literal('owner'), Type.Literal('admin'), Type.Literal('member'), Type.Literal('guest')]);
const Name = Type.String({ minLength: 1, maxLength: 200, pattern: '^\\S(.*\\S)?$' });
const Email = Type.String({ minLength: 3, maxLength: 254, format: 'email' });
/** Length rules are checked by the service (at least 10 characters), so the message names the rule. */
const Password = Type.String({ maxLength: 1024 });
const LinkToken = Type.String({ minLength: 1, maxLength: 200 });

export const SessionPayload = Type.Object({
  user: Type.Object({
    id: Type.Integer(),
    kind: Type.Literal('human'),
    email: Type.String(),
    name: Type.String(),
    role: Role,
  }),
  organization: Type.Object({ id: Type.Integer(), slug: Type.String(), name: Type.String() }),
  csrf_token: Type.String(),
  session: Type.Object({ id: Type.Integer(), created_at: Timestamp, expires_at: Timestamp }),
});

export const SetupBody = Type.Object(
  {
    token: LinkToken,
    organization: Type.Object(
      { name: Name, slug: Type.String({ minLength: 1, maxLength: 63 }) },
      { additionalProperties: false },
    ),
    name: Name,
    email: Email,
    password: Password,
  },
  { additionalProperties: false },
);

export const SignInBody = Type.Object(
  { email: Type.String({ maxLength: 254 }), password: Password },
  { additionalProperties: false },
);
export const AcceptBody = Type.Object(
  { token: LinkToken, name: Name, password: Password },
  { additionalProperties: false },
);
export const ResetRequestBody = Type.Object(
  { email: Type.String({ maxLength: 254 }) },
  { additionalProperties: false },
);
export const ResetCompleteBody = Type.Object({ token: LinkToken, password: Password }, { additionalProperties: false });

export const SessionItem = Type.Object({
  id: Type.Integer(),
  current: Type.Boolean(),
  created_at: Timestamp,
  last_seen_at: Timestamp,
  expires_at: Timestamp,
  user_agent: Type.String(),
  ip: Type.String(),
});

export const Person = Type.Object({
  id: Type.Integer(),
  kind: Type.Union([Type.Literal('human'), Type.Literal('service')]),
  email: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  handle: Type.String(),
  role: Role,
  active: Type.Boolean(),
  created_at: Timestamp,
});
export const PersonPatchBody = Type.Object(
  { role: Type.Optional(Role), active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false, minProperties: 1 },
);
export const NameBody = Type.Object({ name: Type.Optional(Name) }, { additionalProperties: false });
export const PasswordChangeBody = Type.Object(
  { current_password: Password, new_password: Password },
  { additionalProperties: false },
);

export const Organization = Type.Object({
  id: Type.Integer(),
  slug: Type.String(),
  name: Type.String(),
  created_at: Timestamp,
});

export const ResetLink = Type.Object({ url: Type.String(), expires_at: Timestamp });

const ProjectRole = Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('viewer')]);
/** A project an invitation adds its person to. */
const InvitedProject = Type.Object({ key: Type.String(), name: Type.String(), role: ProjectRole });

export const Invitation = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  role: Role,
  projects: Type.Array(InvitedProject),
  created_at: Timestamp,
  expires_at: Timestamp,
  invited_by: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()]),
});
export const CreatedInvitation = Type.Composite([
  Invitation,
  Type.Object({ url: Type.String({ description: 'Shown once.' }), emailed: Type.Boolean() }),
]);
export const InvitationBody = Type.Object(
  {
    email: Email,
    role: Role,
    projects: Type.Optional(
      Type.Array(
        Type.Object(
          { project: Type.String({ minLength: 1, maxLength: 10 }), role: ProjectRole },
          { additionalProperties: false },
        ),
        { maxItems: 50 },
      ),
    ),
  },
  { additionalProperties: false },
);
export const InvitationLookup = Type.Object({
  email: Type.String(),
  role: Role,
  projects: Type.Array(InvitedProject),
  organization: Type.Object({ name: Type.String() }),
  expires_at: Timestamp,
});

export const ServiceAccountBody = Type.Object(
  { name: Name, role: Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('guest')]) },
  { additionalProperties: false },
);

export const Token = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  account: Type.Object({ id: Type.Integer(), name: Type.String() }),
  scopes: Type.Array(Type.String()),
  projects: Type.Union([Type.Array(Type.String()), Type.Null()]),
  created_at: Timestamp,
  expires_at: Type.Union([Timestamp, Type.Null()]),
  last_used_at: Type.Union([Timestamp, Type.Null()]),
});
export const CreatedToken = Type.Composite([
  Token,
  Type.Object({ token: Type.String({ description: 'Shown once.' }) }),
]);
export const TokenBody = Type.Object(
  {
    name: Type.String({ maxLength: 200 }),
    account: Type.Integer({ minimum: 1, maximum: 2147483647 }),
    scopes: Type.Array(Type.Union(ALL_SCOPES.map((s) => Type.Literal(s))), {
      minItems: 1,
      maxItems: ALL_SCOPES.length,
    }),
    projects: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 10 }), { maxItems: 200 })),
    expires_in_hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 24 * 366 * 10 })),
  },
  { additionalProperties: false },
);
