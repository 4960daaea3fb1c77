import { Type } from '@sinclair/typebox';
import { CursorPagination, Timestamp } from '../../http/schemas.ts';
import { AUDIT_ACTIONS, AUDIT_TARGET_TYPES } from './actions.ts';

const Id = Type.Integer({ minimum: 1, maximum: 2147483647 });
const Json = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]);

export const AuditAction = Type.Union(
  AUDIT_ACTIONS.map((action) => Type.Literal(action)),
  { description: 'What happened (docs/operating/audit.md lists every action).' },
);

export const AuditFilters = {
  actor: Type.Optional({ ...Id, description: 'Only what this person or service account did.' }),
  action: Type.Optional(AuditAction),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Only records at or after this time.' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Only records before this time.' })),
};

export const AuditListQuery = Type.Object(
  {
    ...AuditFilters,
    cursor: Type.Optional(
      Type.String({ maxLength: 200, description: 'From `next_cursor`: the records older than the last page.' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, description: 'Page size, default 50.' })),
  },
  { additionalProperties: false },
);

export const AuditExportQuery = Type.Object(
  {
    ...AuditFilters,
    format: Type.Union([Type.Literal('csv'), Type.Literal('jsonl')], {
      description: 'CSV with a header line, or JSON lines (one record as the list shows it per line).',
    }),
  },
  { additionalProperties: false },
);

export const AuditRecord = Type.Object({
  id: Type.Integer(),
  occurred_at: Timestamp,
  action: AuditAction,
  actor: Type.Object({
    id: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The person or service account; null when nobody was signed in or the system acted.',
    }),
    name: Type.String({
      description: 'Their name when recorded, "system", "operator", or the e-mail a failed sign-in tried.',
    }),
  }),
  via: Type.Object({
    source: Type.Union(
      ['app', 'api', 'agent', 'scheduler', 'operator'].map((s) => Type.Literal(s)),
      {
        description:
          'app: a signed-in session; api: a token; agent: MCP; scheduler: the worker; operator: the command line.',
      },
    ),
    token_id: Type.Union([Type.Integer(), Type.Null()]),
    session_id: Type.Union([Type.Integer(), Type.Null()]),
  }),
  target: Type.Union([
    Type.Object({
      type: Type.Union(AUDIT_TARGET_TYPES.map((t) => Type.Literal(t))),
      id: Type.Union([Type.Integer(), Type.Null()]),
      name: Type.String({ description: 'Its name when recorded: readable after it is deleted.' }),
    }),
    Type.Null(),
  ]),
  project: Type.Union([
    Type.Object({
      id: Type.Integer(),
      key: Type.Union([Type.String(), Type.Null()], { description: 'Null once the project is deleted.' }),
    }),
    Type.Null(),
  ]),
  before: Json,
  after: Json,
  address: Type.Union([Type.String(), Type.Null()], { description: 'The client address (see TRUST_PROXY).' }),
  correlation_id: Type.String({
    description: "The request's id: the same correlation_id as its events, and request_id in the request log.",
  }),
});

export const AuditPage = Type.Object({
  success: Type.Literal(true),
  data: Type.Array(AuditRecord),
  pagination: Type.Ref(CursorPagination),
});
