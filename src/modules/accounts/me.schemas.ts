import { type Static, Type } from '@sinclair/typebox';
import { Timestamp } from '../../http/schemas.ts';

export const Me = Type.Object(
  {
    account: Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      handle: Type.String({
        description:
          'Unique in the organization: how the account is mentioned (`@handle`) and named in queries (`assignee = handle`). Changed with PATCH /me/.',
      }),
      email: Type.Union([Type.String(), Type.Null()]),
      kind: Type.Union([Type.Literal('human'), Type.Literal('service')]),
      role: Type.String({ description: 'Workspace role: owner, admin, member or guest.' }),
    }),
    organization: Type.Object({ id: Type.Integer(), slug: Type.String(), name: Type.String() }),
    token: Type.Union(
      [
        Type.Object({
          id: Type.Integer(),
          scopes: Type.Array(Type.String(), { description: 'Effective scopes (a write scope adds its read scope).' }),
          projects: Type.Union([Type.Array(Type.String()), Type.Null()], {
            description: 'Project keys the token is restricted to; null when unrestricted.',
          }),
          expires_at: Type.Union([Timestamp, Type.Null()]),
        }),
        Type.Null(),
      ],
      {
        description:
          "The bearer token; null when a signed-in person's session cookie authenticated the request (every scope, no restriction).",
      },
    ),
    projects: Type.Array(
      Type.Object({ id: Type.Integer(), key: Type.String(), name: Type.String(), role: Type.String() }),
      {
        description: 'Every project this token can see.',
      },
    ),
  },
  { $id: 'Me', title: 'Me' },
);

export type MeJson = Static<typeof Me>;

export const MePatchBody = Type.Object(
  {
    handle: Type.String({
      description: 'The new handle: `^[a-z0-9][a-z0-9_-]{0,29}$`, not held by another account of the organization.',
      maxLength: 200,
    }),
  },
  { additionalProperties: false },
);
