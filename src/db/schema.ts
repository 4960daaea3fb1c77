import type { Generated } from 'kysely';

/**
 * Table types. Columns are snake_case like the API. Timestamps are ISO 8601 UTC strings with
 * microseconds (they sort as text on both dialects); booleans are 0/1 integers and JSON is
 * text, so SQLite and PostgreSQL store identical values.
 */
export interface OrganizationsTable {
  id: Generated<number>;
  slug: string;
  name: string;
  created_at: string;
}

export type WorkspaceRole = 'owner' | 'admin' | 'member' | 'guest';
export type ProjectRole = 'admin' | 'member' | 'viewer';

export interface UsersTable {
  id: Generated<number>;
  organization_id: number;
  kind: 'human' | 'service';
  email: string | null;
  name: string;
  role: WorkspaceRole;
  created_at: string;
}

export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  token_prefix: string;
  /** JSON array of scope strings as granted. */
  scopes: string;
  /** JSON array of project ids, or null for no restriction. */
  project_ids: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

export interface ProjectsTable {
  id: Generated<number>;
  organization_id: number;
  key: string;
  name: string;
  description: string;
  workflow_id: number | null;
  default_status_id: number | null;
  default_task_type_id: number | null;
  default_priority_id: number | null;
  /** Last task number handed out; keys are never reused. */
  task_counter: number;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface ProjectMembershipsTable {
  id: Generated<number>;
  project_id: number;
  user_id: number;
  role: ProjectRole;
  created_at: string;
  updated_at: string;
}

export type StatusCategory = 'todo' | 'in_progress' | 'done';

export interface StatusesTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  category: StatusCategory;
  position: number;
  created_at: string;
  updated_at: string;
}

export interface WorkflowsTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface TransitionsTable {
  id: Generated<number>;
  workflow_id: number;
  from_status_id: number;
  to_status_id: number;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface TaskTypesTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  position: number;
}

export interface PrioritiesTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  position: number;
}

export interface IdempotencyKeysTable {
  id: Generated<number>;
  token_id: number;
  key: string;
  request_hash: string;
  state: 'in_flight' | 'complete';
  response_status: number | null;
  response_body: string | null;
  /** While in flight: when the claim is considered abandoned by a crashed process. */
  lease_expires_at: string;
  created_at: string;
}

export interface MilestonesTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  description: string;
  due_date: string | null;
  state: 'open' | 'closed';
  created_at: string;
  updated_at: string;
}

export interface SprintsTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  goal: string;
  start_date: string | null;
  end_date: string | null;
  state: 'planned' | 'active' | 'completed';
  created_at: string;
  updated_at: string;
}

export interface LabelsTable {
  id: Generated<number>;
  project_id: number;
  name: string;
  color: string;
  description: string;
  created_at: string;
  updated_at: string;
}

export interface TasksTable {
  id: Generated<number>;
  project_id: number;
  /** Per-project sequence number; the key is `${project.key}-${number}`. */
  number: number;
  key: string;
  title: string;
  description: string;
  task_type_id: number;
  priority_id: number;
  status_id: number;
  assignee_id: number | null;
  parent_id: number | null;
  /** YYYY-MM-DD */
  due_date: string | null;
  milestone_id: number | null;
  sprint_id: number | null;
  /** Incremented on every change; the ETag is derived from it. */
  version: number;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface TaskLabelsTable {
  id: Generated<number>;
  task_id: number;
  label_id: number;
}

export interface TaskFollowersTable {
  id: Generated<number>;
  task_id: number;
  user_id: number;
  created_at: string;
}

export interface ActivitiesTable {
  id: Generated<number>;
  task_id: number;
  actor_id: number | null;
  /** created, updated, and event-like entries such as due_soon or escalated. */
  action: string;
  field: string | null;
  /** JSON values. */
  from_value: string | null;
  to_value: string | null;
  created_at: string;
}

export interface TaskChangesTable {
  id: Generated<number>;
  project_id: number;
  task_id: number;
  task_key: string;
  action: 'created' | 'updated' | 'deleted';
  /** JSON of the task as it was after the change; null for deletions. */
  task: string | null;
  changed_at: string;
}

export interface EventOutboxTable {
  id: Generated<number>;
  event_id: string;
  type: string;
  organization_id: number;
  project_id: number | null;
  actor_id: number | null;
  correlation_id: string;
  /** The delivery envelope, serialized once; these exact bytes are signed and sent. */
  envelope: string;
  occurred_at: string;
  fanned_out_at: string | null;
}

export type LinkType = 'blocks' | 'relates_to' | 'duplicates';

export interface TaskLinksTable {
  id: Generated<number>;
  /** For `blocks`: the blocking task. For `relates_to`: the lower task id. */
  from_task_id: number;
  to_task_id: number;
  type: LinkType;
  created_by: number | null;
  created_at: string;
}

export interface CommentsTable {
  id: Generated<number>;
  task_id: number;
  author_id: number | null;
  /** Markdown, stored exactly as sent. */
  body: string;
  created_at: string;
  updated_at: string;
  /** Set when an edit changed the body. */
  edited_at: string | null;
}

export interface AttachmentsTable {
  id: Generated<number>;
  task_id: number;
  /** Server-generated file name in ATTACHMENTS_DIR; never derived from client input. */
  storage_name: string;
  /** The client's file name, sanitized, for display only. */
  filename: string;
  content_type: string;
  size: number;
  /** Hex SHA-256 of the stored bytes. */
  sha256: string;
  uploaded_by: number | null;
  created_at: string;
}

export interface TimeEntriesTable {
  id: Generated<number>;
  task_id: number;
  user_id: number | null;
  minutes: number;
  /** YYYY-MM-DD: the day the work was done. */
  date: string;
  note: string;
  created_at: string;
  updated_at: string;
}

export interface Database {
  organizations: OrganizationsTable;
  users: UsersTable;
  api_tokens: ApiTokensTable;
  projects: ProjectsTable;
  project_memberships: ProjectMembershipsTable;
  statuses: StatusesTable;
  workflows: WorkflowsTable;
  transitions: TransitionsTable;
  task_types: TaskTypesTable;
  priorities: PrioritiesTable;
  idempotency_keys: IdempotencyKeysTable;
  milestones: MilestonesTable;
  sprints: SprintsTable;
  labels: LabelsTable;
  tasks: TasksTable;
  task_labels: TaskLabelsTable;
  task_followers: TaskFollowersTable;
  activities: ActivitiesTable;
  task_changes: TaskChangesTable;
  event_outbox: EventOutboxTable;
  task_links: TaskLinksTable;
  comments: CommentsTable;
  attachments: AttachmentsTable;
  time_entries: TimeEntriesTable;
}
