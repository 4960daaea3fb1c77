import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { PaginationQuery, Timestamp } from '../../http/schemas.ts';
import { TaskKey } from '../tasks/task.schemas.ts';

const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {});
const DateOnly = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
const StatusCategory = Type.Union([Type.Literal('todo'), Type.Literal('in_progress'), Type.Literal('done')]);
const MAX_ID = 2147483647;

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const MAX_QUESTIONS = 10;
export const MAX_BLOCKERS = 20;
/** Tasks kept in an entry's frozen snapshot (most recently updated first). */
export const MAX_SNAPSHOT_TASKS = 200;

export const StandupTask = Type.Object(
  {
    key: Type.String({ description: 'Task key as it was when the entry was submitted.' }),
    title: Type.String({ description: 'Title as it was when the entry was submitted.' }),
    status: Type.String({ description: 'Status name as it was when the entry was submitted.' }),
    status_category: StatusCategory,
  },
  {
    $id: 'StandupTask',
    title: 'StandupTask',
    description: 'One task of a frozen standup snapshot. Later renames, moves and deletions never change it.',
  },
);

const EntryBlocker = Type.Object({
  text: Type.String(),
  task: Nullable(Type.String(), 'Key of the task this blocker is about, as written.'),
});

const EntryState = Type.Union([Type.Literal('draft'), Type.Literal('submitted'), Type.Literal('skipped')]);

export const StandupEntry = Type.Object(
  {
    id: Type.Integer(),
    user: Type.Integer({ description: "User id of the person (always the writing token's service account)." }),
    date: Type.Union([DateOnly], { description: 'The day the entry belongs to, in the team timezone (settings).' }),
    state: Type.Union([EntryState], {
      description: '`draft` (built by redraft, visible only to its author), `submitted` (PUT me) or `skipped`.',
    }),
    done: Type.String({ description: 'What the person did since their last entry.' }),
    doing: Type.String({ description: 'What the person is doing now.' }),
    blockers: Type.Array(EntryBlocker, {
      description: 'What blocks the person. A blocker about a task in a project the caller cannot see is omitted.',
    }),
    tasks: Type.Array(Type.Ref(StandupTask), {
      description:
        "The person's worklist frozen at submission (empty for drafts and skipped days). Tasks of projects the caller cannot see are omitted.",
    }),
    submitted_at: Nullable(Timestamp, 'When the entry was last submitted; null unless `state` is `submitted`.'),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'StandupEntry', title: 'StandupEntry' },
);
export type StandupEntryJson = Static<typeof StandupEntry>;

export const TeamBlocker = Type.Object(
  {
    source: Type.Union([Type.Literal('standup'), Type.Literal('link')], {
      description:
        "`standup`: declared in today's submitted entry. `link`: an open task blocked by an unfinished task (`blocks` link).",
    }),
    text: Type.String({ description: 'The person\'s words, or for a link "Blocked by KEY title".' }),
    task: Nullable(
      Type.String(),
      "The blocked task's key: the task named by the standup blocker (if any), or the link's blocked task.",
    ),
    blocked_by: Nullable(
      Type.String(),
      'Links only: key of the unfinished blocking task; null when it is in a project the caller cannot see.',
    ),
    declared_by: Nullable(
      Type.Integer(),
      "User id of who declared it: the entry's author, or who created the link (null if that user is gone).",
    ),
    since: Type.Union([Timestamp], {
      description:
        'Standup: when the person first declared it in their run of entries. Link: when the link was created.',
    }),
    entry: Nullable(Type.Integer(), 'Id of the standup entry (standup blockers).'),
    link: Nullable(Type.Integer(), 'Id of the link (link blockers).'),
  },
  { $id: 'TeamBlocker', title: 'TeamBlocker' },
);

export const WorklistItem = Type.Object(
  {
    key: Type.String(),
    project: Type.String({ description: 'Project key.' }),
    title: Type.String(),
    status: Type.String(),
    status_category: StatusCategory,
    priority: Type.String(),
    changed_today: Type.Boolean({ description: 'The person changed this task today (team timezone).' }),
    updated_at: Timestamp,
  },
  { $id: 'WorklistItem', title: 'WorklistItem', description: 'A task assigned to the person, live.' },
);

const Weekday = Type.Union(WEEKDAYS.map((day) => Type.Literal(day)));
const TimeZone = Type.String({ minLength: 1, maxLength: 100, description: 'IANA timezone name, e.g. Europe/Berlin.' });
const Days = Type.Array(Weekday, {
  minItems: 1,
  maxItems: 7,
  uniqueItems: true,
  description: 'Standup days; returned in week order.',
});
const ReminderTime = Type.String({
  pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
  description: 'HH:MM (24 h) in the team timezone.',
});
const Questions = Type.Array(Type.String({ minLength: 1, maxLength: 500 }), {
  minItems: 1,
  maxItems: MAX_QUESTIONS,
  description: `The prompts shown to people writing an entry, 1 to ${MAX_QUESTIONS}.`,
});

export const StandupSettings = Type.Object(
  { timezone: TimeZone, days: Days, reminder_time: ReminderTime, questions: Questions },
  { $id: 'StandupSettings', title: 'StandupSettings' },
);
export type StandupSettingsJson = Static<typeof StandupSettings>;

export const SettingsPatchBody = Type.Object(
  {
    timezone: Type.Optional(TimeZone),
    days: Type.Optional(Days),
    reminder_time: Type.Optional(ReminderTime),
    questions: Type.Optional(Questions),
  },
  { additionalProperties: false },
);
export type SettingsPatch = Static<typeof SettingsPatchBody>;

export const EntryPutBody = Type.Object(
  {
    done: Type.Optional(
      Type.String({
        maxLength: 10000,
        description: "What you did. Omitted: keeps today's current text (e.g. the redraft).",
      }),
    ),
    doing: Type.Optional(
      Type.String({ maxLength: 10000, description: "What you are doing. Omitted: keeps today's current text." }),
    ),
    blockers: Type.Optional(
      Type.Array(
        Type.Object(
          {
            text: Type.String({ minLength: 1, maxLength: 1000 }),
            task: Type.Optional(Nullable(TaskKey, 'Key of a task you can see that this blocker is about.')),
          },
          { additionalProperties: false },
        ),
        {
          maxItems: MAX_BLOCKERS,
          description: `Replaces the whole list (at most ${MAX_BLOCKERS}). Omitted: keeps today's current blockers.`,
        },
      ),
    ),
  },
  { additionalProperties: false },
);
export type EntryPut = Static<typeof EntryPutBody>;

/** Redraft and skip act on the caller's own day and take no fields; any field, such as a `user`, is refused. */
export const NoFieldsBody = Type.Object(
  {},
  { additionalProperties: false, description: 'Optional: no body, or an empty object.' },
);

export const EntryListQuery = Type.Object({
  ...PaginationQuery,
  date: Type.Optional(Type.Union([DateOnly], { description: 'Team day to list; default today (team timezone).' })),
  user: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ID, description: "Only this person's entry." })),
  state: Type.Optional(EntryState),
});
export type EntryListFilters = Static<typeof EntryListQuery>;

export const UserIdParams = Type.Object({ user_id: Type.Integer({ minimum: 1, maximum: MAX_ID }) });
