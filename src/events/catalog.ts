/**
 * The event catalog (docs/api/webhooks.md): the one definition served by
 * GET /api/v1/webhooks/catalog/, used to validate subscriptions, and published with each
 * type's `data` in the OpenAPI document's webhooks section (event-schemas.ts of the webhooks
 * module), which the SDK's typed events are generated from. Every listed type is produced
 * somewhere in the code; tests/sdk/webhook-events.test.ts checks each delivery against its schema.
 */
import { Type, type TSchema } from '@sinclair/typebox';

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
