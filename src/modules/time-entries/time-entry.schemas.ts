import { Type, type Static } from '@sinclair/typebox';
import { PaginationQuery, Timestamp } from '../../http/schemas.ts';

export const MAX_MINUTES = 1440;
export const MAX_NOTE_LENGTH = 2000;

export const TimeEntry = Type.Object(
  {
    id: Type.Integer(),
    task: Type.String({ description: 'Task key.' }),
    user: Type.Union([Type.Integer(), Type.Null()], {
      description: "User id of the account that logged the time (the token's account); null if it no longer exists.",
    }),
    minutes: Type.Integer({ minimum: 1, maximum: MAX_MINUTES }),
    date: Type.String({ format: 'date', description: 'YYYY-MM-DD: the day the work was done.' }),
    note: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'TimeEntry', title: 'TimeEntry' },
);
export type TimeEntryJson = Static<typeof TimeEntry>;

const fields = {
  minutes: Type.Integer({
    minimum: 1,
    maximum: MAX_MINUTES,
    description: `Whole minutes, 1-${MAX_MINUTES} (one day).`,
  }),
  date: Type.String({ format: 'date', description: 'YYYY-MM-DD: the day the work was done.' }),
  note: Type.String({
    maxLength: MAX_NOTE_LENGTH,
    pattern: '^[^\\u0000]*$',
    description: `Up to ${MAX_NOTE_LENGTH} characters, no U+0000.`,
  }),
};

export const TimeEntryCreateBody = Type.Object(
  { minutes: fields.minutes, date: fields.date, note: Type.Optional(fields.note) },
  {
    additionalProperties: false,
    description: "Logged for the token's account; there is no logging on behalf of others.",
  },
);
export type TimeEntryCreateInput = Static<typeof TimeEntryCreateBody>;

export const TimeEntryUpdateBody = Type.Object(
  { minutes: Type.Optional(fields.minutes), date: Type.Optional(fields.date), note: Type.Optional(fields.note) },
  { additionalProperties: false, description: 'Any subset of the fields; omitted ones keep their values.' },
);
export type TimeEntryUpdateInput = Static<typeof TimeEntryUpdateBody>;

export const TimeEntryListQuery = Type.Object({
  ...PaginationQuery,
  ordering: Type.Optional(
    Type.String({
      maxLength: 200,
      description: 'date, created_at or minutes; `-` for descending. Default: date (oldest first).',
    }),
  ),
});
