/**
 * The write baseline of the create scenarios: the five statements a task create cannot do
 * without (take the project's counter, insert the task, its change record, its activity entry
 * and its outbox event), in one transaction, sent straight through the driver. The service does
 * the same work plus everything the product adds (validation, policy, idempotency, snapshots).
 */
import { randomUUID } from 'node:crypto';

export interface CreateInput {
  projectKey: string;
  title: string;
  description: string;
  actorId: number;
  organizationId: number;
  now: string;
}

/** Statements in order; each uses its `$n` placeholders in order, so SQLite takes them as `?`. */
export const CREATE_STATEMENTS = {
  counter:
    'update projects set task_counter = task_counter + 1 where key = $1 and organization_id = $2 returning id, key, task_counter, default_status_id, default_task_type_id, default_priority_id',
  task: 'insert into tasks (project_id, number, key, title, description, task_type_id, priority_id, status_id, version, created_by, created_at, updated_at) values ($1, $2, $3, $4, $5, $6, $7, $8, 1, $9, $10, $11) returning id',
  change:
    "insert into task_changes (project_id, task_id, task_key, action, task, changed_at) values ($1, $2, $3, 'created', $4, $5)",
  activity: "insert into activities (task_id, actor_id, action, created_at) values ($1, $2, 'created', $3)",
  outbox:
    "insert into event_outbox (event_id, type, organization_id, project_id, actor_id, correlation_id, envelope, occurred_at) values ($1, 'task.created', $2, $3, $4, $5, $6, $7)",
};

/** The sixth statement of the node:http baseline, which answers keyed creates as the service does: the stored answer. */
export const IDEMPOTENCY_STATEMENT =
  "insert into idempotency_keys (token_id, key, request_hash, state, response_status, response_body, lease_expires_at, created_at) values ($1, $2, $3, 'complete', 201, $4, $5, $6)";

export const sqliteStatement = (text: string) => text.replace(/\$\d+/g, '?');

interface ProjectRow {
  id: number;
  key: string;
  task_counter: number;
  default_status_id: number;
  default_task_type_id: number;
  default_priority_id: number;
}

/** The parameters of each statement, given what the counter statement returned. */
export function createParameters(input: CreateInput, project: ProjectRow, taskId?: number) {
  const key = `${project.key}-${project.task_counter}`;
  const task = JSON.stringify({ key, title: input.title, description: input.description });
  const eventId = `evt_${randomUUID().replaceAll('-', '')}`;
  return {
    key,
    task: [
      project.id,
      project.task_counter,
      key,
      input.title,
      input.description,
      project.default_task_type_id,
      project.default_priority_id,
      project.default_status_id,
      input.actorId,
      input.now,
      input.now,
    ],
    change: [project.id, taskId, key, task, input.now],
    activity: [taskId, input.actorId, input.now],
    outbox: [
      eventId,
      input.organizationId,
      project.id,
      input.actorId,
      eventId,
      JSON.stringify({ id: eventId, type: 'task.created', data: { task } }),
      input.now,
    ],
  };
}
