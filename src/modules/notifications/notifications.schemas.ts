import { type Static, Type } from '@sinclair/typebox';
import { PaginationQuery, Timestamp } from '../../http/schemas.ts';
import { REASONS } from './reasons.ts';

const Reason = Type.Union(
  REASONS.map((reason) => Type.Literal(reason)),
  { description: 'Why the notification came (docs/api/notifications.md, "Reasons").' },
);

export const Notification = Type.Object(
  {
    id: Type.Integer(),
    reason: Reason,
    created_at: Timestamp,
    read_at: Type.Union([Timestamp, Type.Null()], { description: 'Null while unread.' }),
    actor: Type.Union([Type.Object({ id: Type.Integer(), name: Type.String() }), Type.Null()], {
      description: 'Who caused it; null for the scheduler and the system.',
    }),
    task: Type.Union([Type.Object({ key: Type.String(), title: Type.String() }), Type.Null()], {
      description: 'The task it is about; null when it is about no task.',
    }),
    comment: Type.Union([Type.Integer(), Type.Null()], { description: 'Id of the comment it is about, if any.' }),
    text: Type.String({ description: 'One line saying what happened.' }),
  },
  { $id: 'Notification', title: 'Notification' },
);
export type NotificationJson = Static<typeof Notification>;

export const NotificationListQuery = Type.Object({
  ...PaginationQuery,
  ordering: Type.Optional(
    Type.String({ maxLength: 200, description: 'created_at or -created_at (default: newest first).' }),
  ),
  unread: Type.Optional(Type.Boolean({ description: '`true`: only notifications not yet read.' })),
  reason: Type.Optional(
    Type.String({
      maxLength: 300,
      pattern: '^[a-z_]+(,[a-z_]+)*$',
      description: `One reason or a comma-separated list: ${REASONS.join(', ')}.`,
    }),
  ),
});

export const NotificationReadBody = Type.Union(
  [
    Type.Object(
      {
        ids: Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), {
          minItems: 1,
          maxItems: 500,
          description: 'Notifications to mark read; ids that are not yours or already read are passed over.',
        }),
      },
      { additionalProperties: false },
    ),
    Type.Object(
      { all: Type.Literal(true, { description: 'Marks every unread notification read.' }) },
      { additionalProperties: false },
    ),
  ],
  { description: '`{"ids": [...]}` or `{"all": true}`.' },
);

export const NotificationReadResult = Type.Object({
  read: Type.Integer({ description: 'How many notifications this marked read.' }),
});

const Delivery = Type.Object(
  {
    in_app: Type.Boolean({ description: 'Listed in the inbox and sent over the live stream.' }),
    email: Type.Boolean({ description: 'E-mailed (when the server sends e-mail).' }),
  },
  { additionalProperties: false },
);

export const NotificationPreferences = Type.Object(
  {
    reasons: Type.Object(Object.fromEntries(REASONS.map((reason) => [reason, Delivery])), {
      additionalProperties: false,
    }),
  },
  { $id: 'NotificationPreferences', title: 'NotificationPreferences' },
);
export type NotificationPreferencesJson = Static<typeof NotificationPreferences>;

export const NotificationPreferencesPatch = Type.Object(
  {
    reasons: Type.Object(
      Object.fromEntries(
        REASONS.map((reason) => [
          reason,
          Type.Optional(
            Type.Object(
              { in_app: Type.Optional(Type.Boolean()), email: Type.Optional(Type.Boolean()) },
              { additionalProperties: false },
            ),
          ),
        ]),
      ),
      { additionalProperties: false, description: 'Only the reasons (and channels) to change.' },
    ),
  },
  { additionalProperties: false },
);
export type NotificationPreferencesPatchJson = Static<typeof NotificationPreferencesPatch>;
