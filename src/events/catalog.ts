/**
 * The event catalog (docs/api/webhooks.md): the one definition served by
 * GET /api/v1/webhooks/catalog/, used to validate subscriptions, and published with each
 * type's `data` in the OpenAPI document's webhooks section (event-schemas.ts of the webhooks
 * module), which the SDK's typed events are generated from. Every listed type is produced
 * somewhere in the code; tests/sdk/webhook-events.test.ts checks each delivery against its schema.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { Project } from '../modules/projects/projects.schemas.ts';

/** A schema of the document's components, by name (those the modules register with a `$id`). */
const component = (name: string): TSchema => Type.Unsafe({ $ref: `#/components/schemas/${name}` });

const TaskHeadline = Type.Object(
  { key: Type.String({ examples: ['WEB-12'] }), title: Type.String() },
  { description: 'The task by key and title.' },
);
const UserId = Type.Union([Type.Integer(), Type.Null()], { description: 'A user id, or null for nobody.' });
const ScheduledTask = Type.Object(
  {
    key: Type.String(),
    title: Type.String(),
    project: Type.String({ description: 'Project key.' }),
    status: Type.String(),
    assignee: UserId,
    due_date: Type.Union([Type.String({ format: 'date' }), Type.Null()]),
  },
  { description: 'The task as the scheduler saw it.' },
);
const Change = Type.Object({ from: Type.Unknown(), to: Type.Unknown() });
const Changes = Type.Record(Type.String(), Change, {
  description: 'Each changed field with its value before and after.',
});
const LinkedTask = Type.Object(
  { key: Type.String(), title: Type.String(), project: Type.String({ description: 'Project key.' }) },
  { description: 'One end of a link.' },
);
const Link = Type.Object(
  {
    id: Type.Integer(),
    type: Type.Union([Type.Literal('blocks'), Type.Literal('relates_to'), Type.Literal('duplicates')], {
      description: '`from` blocks, relates to or duplicates `to`.',
    }),
    from: LinkedTask,
    to: LinkedTask,
  },
  { description: 'The link, read from `from` to `to`.' },
);
const ProjectRef = Type.Object({ id: Type.Integer(), key: Type.String() });
const { role: _callerRole, ...projectFields } = Project.properties;
const EventProject = Type.Object(projectFields, { description: 'The project (the fields of Project but `role`).' });
const StandupEntryRef = Type.Object(
  { id: Type.Integer(), user: Type.Integer({ description: 'Whose entry.' }), date: Type.String({ format: 'date' }) },
  { description: 'The standup entry, by id, person and team day.' },
);
const Blocker = Type.Object({
  text: Type.String(),
  task: Type.Union([Type.String(), Type.Null()], { description: 'The key of the task it names, or null.' }),
  since: Type.String({ format: 'date-time', description: 'When the person first declared it.' }),
});
const ProjectRole = Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('viewer'), Type.Null()]);

export const EVENT_CATALOG = [
  {
    type: 'task.created',
    description: 'A task is created.',
    subscribable: true,
    data: Type.Object({ task: component('Task') }),
  },
  {
    type: 'task.updated',
    description: 'Any field on a task changes. data: {task, changes: {field: {from, to}}}.',
    subscribable: true,
    data: Type.Object({
      task: component('Task'),
      changes: Type.Record(Type.String(), Change, {
        description:
          'Each changed field of the task (a Task property, or `custom_fields.<id>`) with its value before and after.',
      }),
    }),
  },
  {
    type: 'task.status_changed',
    description: 'A task moves between statuses. data: {task: {key, title}, from, to}.',
    subscribable: true,
    data: Type.Object({
      task: TaskHeadline,
      from: Type.String({ description: 'The status name before.' }),
      to: Type.String({ description: 'The status name now.' }),
    }),
  },
  {
    type: 'task.assigned',
    description: "A task's assignee changes.",
    subscribable: true,
    data: Type.Object({ task: TaskHeadline, from: UserId, to: UserId }),
  },
  {
    type: 'task.deleted',
    description: 'A task is deleted.',
    subscribable: true,
    data: Type.Object({ task: TaskHeadline }),
  },
  {
    type: 'task.due_soon',
    description: "A task's due date approaches.",
    subscribable: true,
    data: Type.Object({
      task: ScheduledTask,
      due_date: Type.String({ format: 'date' }),
      window_hours: Type.Integer({ description: 'How far ahead due dates are announced (DUE_SOON_WINDOW_HOURS).' }),
    }),
  },
  {
    type: 'task.escalated',
    description: 'Stuck work is escalated.',
    subscribable: true,
    data: Type.Object({
      task: ScheduledTask,
      status: Type.String({ description: 'The status it is stuck in.' }),
      stuck_since: Type.String({ format: 'date-time', description: 'When the task last changed.' }),
      stuck_days: Type.Integer({ description: 'The threshold it passed (ESCALATE_AFTER_DAYS).' }),
    }),
  },
  {
    type: 'comment.created',
    description: 'A comment is posted. data: {comment, task: {key, title}}.',
    subscribable: true,
    data: Type.Object({ comment: component('Comment'), task: TaskHeadline }),
  },
  {
    type: 'comment.updated',
    description: "A comment's body is edited. data: {comment, task: {key, title}}.",
    subscribable: true,
    data: Type.Object({ comment: component('Comment'), task: TaskHeadline }),
  },
  {
    type: 'comment.deleted',
    description: 'A comment is deleted. data: {comment: {id, author}, task: {key, title}}.',
    subscribable: true,
    data: Type.Object({
      comment: Type.Object({ id: Type.Integer(), author: UserId }),
      task: TaskHeadline,
    }),
  },
  {
    type: 'task.linked',
    description:
      "Two tasks are linked. data: {link: {id, type, from, to}}. Sent only to those who see both tasks' projects.",
    subscribable: true,
    data: Type.Object({ link: Link }),
  },
  {
    type: 'task.unlinked',
    description: 'A link between two tasks is removed. data: {link: {id, type, from, to}}, as it was.',
    subscribable: true,
    data: Type.Object({ link: Link }),
  },
  {
    type: 'attachment.created',
    description: 'A file is attached to a task. data: {attachment, task: {key, title}}.',
    subscribable: true,
    data: Type.Object({ attachment: component('Attachment'), task: TaskHeadline }),
  },
  {
    type: 'sprint.started',
    description:
      'A sprint becomes active (created active, or changed to `active`). data: {sprint, project: {id, key}}.',
    subscribable: true,
    data: Type.Object({ sprint: component('Sprint'), project: ProjectRef }),
  },
  {
    type: 'sprint.completed',
    description: 'A sprint is marked `completed`. data: {sprint, project: {id, key}}.',
    subscribable: true,
    data: Type.Object({ sprint: component('Sprint'), project: ProjectRef }),
  },
  {
    type: 'standup.submitted',
    description:
      "A person submits (or resubmits) the day's standup entry. data: {entry: {id, user, date, done, doing, submitted_at}}; its tasks and blockers are left out (they may name projects a receiver cannot see: the blocker events carry those).",
    subscribable: true,
    data: Type.Object({
      entry: Type.Object({
        ...StandupEntryRef.properties,
        done: Type.String(),
        doing: Type.String(),
        submitted_at: Type.String({ format: 'date-time' }),
      }),
    }),
  },
  {
    type: 'standup.blocker_raised',
    description:
      'A submitted entry declares a blocker the person had not declared before. data: {blocker, entry}. A blocker naming a task belongs to its project.',
    subscribable: true,
    data: Type.Object({ blocker: Blocker, entry: StandupEntryRef }),
  },
  {
    type: 'standup.blocker_cleared',
    description:
      "A submitted entry no longer declares a blocker of the person's previous submission. data: {blocker, entry} (the entry that cleared it).",
    subscribable: true,
    data: Type.Object({ blocker: Blocker, entry: StandupEntryRef }),
  },
  {
    type: 'project.created',
    description: 'A project is created. data: {project}.',
    subscribable: true,
    data: Type.Object({ project: EventProject }),
  },
  {
    type: 'project.updated',
    description: "A project's settings change. data: {project, changes: {field: {from, to}}}.",
    subscribable: true,
    data: Type.Object({ project: EventProject, changes: Changes }),
  },
  {
    type: 'membership.changed',
    description:
      'Someone is added to a project (its creator, as admin, when it is created; by a project admin; by accepting an invitation that names it), changes role in it, or is removed from it. data: {membership, change, from_role, to_role}.',
    subscribable: true,
    data: Type.Object({
      membership: Type.Object({
        id: Type.Integer(),
        project: ProjectRef,
        user: Type.Object({ id: Type.Integer(), name: Type.String() }),
      }),
      change: Type.Union([Type.Literal('added'), Type.Literal('role_changed'), Type.Literal('removed')]),
      from_role: Type.Union([ProjectRole], { description: 'The role before; null when added.' }),
      to_role: Type.Union([ProjectRole], { description: 'The role now; null when removed.' }),
    }),
  },
  {
    type: 'notification.created',
    description:
      "Someone is notified in the app (docs/api/notifications.md). data: {notification}, as the recipient's GET /api/v1/me/notifications/ lists it. Sent only to the recipient: their tokens' event streams and the endpoints their account governs; the actor and source are those of the change that caused it.",
    subscribable: true,
    data: Type.Object({ notification: component('Notification') }),
  },
  {
    type: 'webhook.test',
    description: 'A test sent to one endpoint on request; never subscribable.',
    subscribable: false,
    data: Type.Object({
      endpoint: Type.Object({ id: Type.Integer(), url: Type.String() }),
      message: Type.String(),
    }),
  },
] as const satisfies ReadonlyArray<{ type: string; description: string; subscribable: boolean; data: TSchema }>;

export type EventType = (typeof EVENT_CATALOG)[number]['type'];

export const SUBSCRIBABLE_EVENT_TYPES: readonly string[] = EVENT_CATALOG.filter((e) => e.subscribable).map(
  (e) => e.type,
);

export const API_VERSION = 'v1';
