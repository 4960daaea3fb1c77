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
}
