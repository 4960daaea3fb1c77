/**
 * The event catalog (docs/api/webhooks.md): the one definition served by
 * GET /api/v1/webhooks/catalog/ and used to validate subscriptions. Every listed type is produced somewhere in the code.
 */
export const EVENT_CATALOG = [
  { type: 'task.created', description: 'A task is created.', subscribable: true },
  {
    type: 'task.updated',
    description: 'Any field on a task changes. data: {task, changes: {field: {from, to}}}.',
    subscribable: true,
  },
  {
    type: 'task.status_changed',
    description: 'A task moves between statuses. data: {task: {key, title}, from, to}.',
    subscribable: true,
  },
  { type: 'task.assigned', description: "A task's assignee changes.", subscribable: true },
  { type: 'task.deleted', description: 'A task is deleted.', subscribable: true },
  { type: 'task.due_soon', description: "A task's due date approaches.", subscribable: true },
  { type: 'task.escalated', description: 'Stuck work is escalated.', subscribable: true },
  {
    type: 'comment.created',
    description: 'A comment is posted. data: {comment, task: {key, title}}.',
    subscribable: true,
  },
  {
    type: 'webhook.test',
    description: 'A test sent to one endpoint on request; never subscribable.',
    subscribable: false,
  },
] as const;

export type EventType = (typeof EVENT_CATALOG)[number]['type'];

export const SUBSCRIBABLE_EVENT_TYPES: readonly string[] = EVENT_CATALOG.filter((e) => e.subscribable).map(
  (e) => e.type,
);

export const API_VERSION = 'v1';
