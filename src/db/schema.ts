import type { ColumnType, Generated } from 'kysely';

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
/** The unit of a project's task estimates. */
export type EstimateUnit = 'points' | 'hours';

export interface UsersTable {
  id: Generated<number>;
  organization_id: number;
  kind: 'human' | 'service';
  email: string | null;
  name: string;
  role: WorkspaceRole;
  created_at: string;
  /** argon2id hash (PHC string); null for service accounts and people who have not set a password. */
  password_hash: Generated<string | null>;
  /** 0 once deactivated: no sign-in, no session, no token. */
  active: Generated<number>;
  /** Unique in the organization (src/modules/accounts/handles.ts); how people are mentioned and queried. */
  handle: string;
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
  /** Given at creation to recognise the token in lists; may be empty. */
  name: Generated<string>;
  /** The person who issued it; null when the operator did (the command line). It acts only while they could still issue it. */
  created_by: Generated<number | null>;
}

export interface ApiTokenUsageTable {
  token_id: number;
  last_used_at: string;
}

export interface SessionsTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the cookie's opaque token. */
  token_hash: string;
  created_at: string;
  /** Moves with use (at most once a minute); the idle expiry counts from it. */
  last_seen_at: string;
  /** Absolute expiry, fixed at sign-in. */
  expires_at: string;
  revoked_at: string | null;
  user_agent: string;
  ip: string;
}

export interface SetupTokensTable {
  id: Generated<number>;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface InvitationsTable {
  id: Generated<number>;
  organization_id: number;
  email: string;
  role: WorkspaceRole;
  token_hash: string;
  invited_by: number | null;
  created_at: string;
  expires_at: string;
  accepted_at: string | null;
  accepted_user_id: number | null;
  revoked_at: string | null;
}

/** A project an invitation adds its person to, with the role they get there. */
export interface InvitationProjectsTable {
  invitation_id: number;
  project_id: number;
  role: ProjectRole;
}

export interface PasswordResetsTable {
  id: Generated<number>;
  user_id: number;
  token_hash: string;
  /** The admin who issued it; null when the person asked for it. */
  created_by: number | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
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
  /** What task estimates count (migration 0028). */
  estimate_unit: ColumnType<EstimateUnit, EstimateUnit | undefined, EstimateUnit>;
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
  /** Exactly one of token_id and session_id is set: keys are scoped to the credential. */
  token_id: number | null;
  session_id: Generated<number | null>;
  key: string;
  request_hash: string;
  state: 'in_flight' | 'complete';
  response_status: number | null;
  response_body: string | null;
  /** While in flight: when the claim is considered abandoned by a crashed process. */
  lease_expires_at: string;
  created_at: string;
  /** JSON list of the policy decisions that let the request through, re-decided on replay (src/policy/grants.ts). */
  grants: string | null;
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
  /** YYYY-MM-DD, never after due_date (migration 0028). */
  start_date: string | null;
  /** Non-negative, in the project's estimate_unit (migration 0028). */
  estimate: number | null;
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

/** Someone who unfollowed a task they follow by default (its assignee or creator). */
export interface TaskUnfollowsTable {
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
  /** For `mentioned_in`: the task whose description or comment named this one. */
  source_task_id: Generated<number | null>;
}

export interface TaskChangesTable {
  id: Generated<number>;
  project_id: number;
  task_id: number;
  task_key: string;
  action: 'created' | 'updated' | 'deleted';
  /** JSON of the task as it was after the change; null for deletions. */
  task: string | null;
  /**
   * What the task was right before the change (migration 0025): for an update, the task JSON's
   * properties that differed, as they were; for a deletion, the whole task JSON; null for a
   * creation and for older records. See taskStatesOf.
   */
  before: string | null;
  changed_at: string;
}

/** One change seen by the live stream (migration 0014); written by triggers only. */
export interface LiveEventsTable {
  id: Generated<number>;
  /** PostgreSQL: the writing transaction's id, so readers can follow commit order; SQLite: 0. */
  tx: Generated<number>;
  /** 0 for a notification about no task. */
  project_id: number;
  kind: 'task' | 'comment' | 'project' | 'notification';
  action: string;
  task_key: string | null;
  version: number | null;
  /** Set on a notification's row: only this person's streams get it. */
  recipient_id: Generated<number | null>;
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
  /** The other project an event discloses (a link across projects), or null. */
  related_project_id: number | null;
  /** PostgreSQL: the writing transaction's id, for reading in commit order (migration 0033); 0 on SQLite. */
  tx: Generated<number>;
  /** When the worker computed the event's notifications. */
  notified_at: Generated<string | null>;
  /** The change record of the task write that raised the event (migration 0025); null for other events. */
  task_change_id: number | null;
  /** The one account the event is for (a notification's); null: whoever sees its project. */
  recipient_id: number | null;
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

export interface WebhookEndpointsTable {
  id: Generated<number>;
  organization_id: number;
  created_by: number;
  /**
   * The account that last set the URL, events or filter: the endpoint delivers only events of projects
   * it sees (null only on a database older than migration 0012, never after it).
   */
  governed_by: number;
  project_id: number | null;
  url: string;
  description: string;
  /** JSON array of subscribed event types. */
  events: string;
  /** The signing secret, AES-256-GCM encrypted (see crypto/secret-box.ts). */
  secret_ciphertext: string;
  enabled: number;
  disabled_reason: string | null;
  /** Abandoned deliveries in a row (test deliveries excluded); 20 disables the endpoint. */
  consecutive_failures: number;
  /** A query (docs/api/query-language.md): task events are sent only for tasks it matches (migration 0025). */
  filter: string | null;
  /** What each attempt POSTs: the event envelope, or a chat message rendered from it (migration 0048). */
  format: Generated<WebhookFormat>;
  created_at: string;
  updated_at: string;
}

export type WebhookFormat = 'json' | 'slack' | 'discord' | 'teams';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  endpoint_id: number;
  organization_id: number;
  /** The outbox row holding the envelope bytes; replays point at the same row. */
  outbox_id: number;
  event_id: string;
  event_type: string;
  /** 1 for webhook.test deliveries (and their replays): they never count toward auto-disable. */
  is_test: number;
  replay_of: number | null;
  status: DeliveryStatus;
  /** Attempts whose outcome was recorded. */
  attempts: number;
  /** When the next attempt is due; null once delivered or failed. */
  next_attempt_at: string | null;
  /** While an attempt is in flight: after this the claim is treated as lost and the attempt re-run. */
  locked_until: string | null;
  /** Fences a worker's outcome to its own claim. */
  lease_token: string | null;
  response_status: number | null;
  error: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  number: number;
  started_at: string;
  /** Null while the attempt is in flight. */
  finished_at: string | null;
  duration_ms: number | null;
  response_status: number | null;
  error: string | null;
  /** At most 4 KiB of the receiver's answer. */
  response_body: string | null;
}

export interface NotificationsTable {
  id: Generated<number>;
  organization_id: number;
  /** Recipient. */
  user_id: number;
  kind: string;
  subject: string;
  body: string;
  /** JSON context, e.g. {endpoint_id}. */
  data: string;
  created_at: string;
  emailed_at: string | null;
  email_error: string | null;
  read_at: Generated<string | null>;
  /** Why it came (src/modules/notifications/reasons.ts). */
  reason: string;
  /** Who caused it; null for the scheduler or a deleted account. */
  actor_id: number | null;
  /** The project of its task: a token restricted to projects sees only theirs (and those about no task). */
  project_id: number | null;
  task_id: number | null;
  comment_id: number | null;
  /** 0 when its reason is chosen for e-mail only: it is mailed but not listed. */
  in_app: Generated<number>;
  /** When its e-mail is due; null when none is to be sent (or it was sent or given up). */
  email_due_at: string | null;
  email_attempts: Generated<number>;
}

export interface NotificationPreferencesTable {
  user_id: number;
  reason: string;
  in_app: number;
  email: number;
}

export interface InstallationSecretsTable {
  name: string;
  value: string;
  created_at: string;
}

export interface TaskOverdueNoticesTable {
  id: Generated<number>;
  task_id: number;
  due_date: string;
  created_at: string;
}

/** A person's standup digest of one team day: sent at most once. */
export interface StandupDigestsTable {
  id: Generated<number>;
  user_id: number;
  /** YYYY-MM-DD: the team day (standup settings timezone) it was for. */
  date: string;
  created_at: string;
}

export interface TaskDueNoticesTable {
  id: Generated<number>;
  task_id: number;
  due_date: string;
  created_at: string;
}

export interface TaskEscalationsTable {
  id: Generated<number>;
  task_id: number;
  /** The task's updated_at when the stuck episode began; a later change starts a new episode. */
  stuck_since: string;
  created_at: string;
}

export type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';

export interface StandupSettingsTable {
  organization_id: number;
  /** IANA name, canonical form. */
  timezone: string;
  /** JSON array of Weekday, in week order. */
  days: string;
  /** HH:MM in the team timezone. */
  reminder_time: string;
  /** JSON array of strings. */
  questions: string;
  updated_by: number | null;
  updated_at: string;
}

export type StandupState = 'draft' | 'submitted' | 'skipped';

export interface StandupEntriesTable {
  id: Generated<number>;
  organization_id: number;
  user_id: number;
  /** YYYY-MM-DD: the team-day (settings timezone) the entry belongs to. */
  date: string;
  state: StandupState;
  done: string;
  doing: string;
  /** JSON array of {key, title, status, status_category, project_id}: frozen when submitted. */
  tasks: string;
  submitted_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface StandupBlockersTable {
  id: Generated<number>;
  entry_id: number;
  position: number;
  text: string;
  /** Key of the task the blocker is about, as written. */
  task_key: string | null;
  /** Project of that task when written; decides who may see the blocker. */
  project_id: number | null;
  /** When the person first declared this blocker (carried over from their previous entry). */
  since: string;
}

export type CustomFieldType = 'text' | 'number' | 'date' | 'boolean' | 'url' | 'user' | 'select' | 'multi_select';

export interface CustomFieldsTable {
  id: Generated<number>;
  organization_id: number;
  name: string;
  type: CustomFieldType;
  description: string;
  required: number;
  /** 1: applies to every project (API `projects: null`); 0: to the rows of custom_field_projects. */
  all_projects: number;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface CustomFieldProjectsTable {
  id: Generated<number>;
  field_id: number;
  project_id: number;
}

export interface CustomFieldOptionsTable {
  id: Generated<number>;
  field_id: number;
  value: string;
  position: number;
}

export interface TaskCustomValuesTable {
  id: Generated<number>;
  task_id: number;
  field_id: number;
  /** JSON: a string, number, boolean, user id, option id, or sorted array of option ids. */
  value: string;
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

/** One row (id 1): moved forward by triggers on every access change (migration 0011). */
export interface AuthEpochTable {
  id: number;
  value: number;
}

export type ViewLayout = 'list' | 'board' | 'calendar' | 'timeline';

/** What a retention sweep removed that a reader must know about (migration 0023); `name` is the table. */
export interface RetentionHorizonsTable {
  name: string;
  /** Records before this time may be missing. */
  purged_before: string;
  /** Sweeps that removed such records so far: a reader that began in an earlier one may have missed some. */
  generation: number;
}

/** The largest live_events id a sweep saw, and when (migration 0023). */
export interface LiveEventMarksTable {
  last_id: number;
  marked_at: string;
}

/** A status's earlier name (migration 0029): activity keeps names, so reports resolve them through these. */
export interface StatusRenamesTable {
  id: Generated<number>;
  status_id: number;
  from_name: string;
  to_name: string;
  renamed_at: string;
}

/** A saved view (migration 0022): a query and how its tasks are shown. */
export interface SavedViewsTable {
  id: Generated<number>;
  organization_id: number;
  created_by: number;
  /** Null: a view across projects. */
  project_id: number | null;
  name: string;
  query: string;
  layout: ViewLayout;
  group_by: string | null;
  /** JSON array of task field names. */
  columns: string;
  /** 0: only its creator sees it; 1: everyone who sees its project (the organization, without one). */
  shared: number;
  created_at: string;
  updated_at: string;
}

export interface Database {
  auth_epoch: AuthEpochTable;
  organizations: OrganizationsTable;
  users: UsersTable;
  api_tokens: ApiTokensTable;
  api_token_usage: ApiTokenUsageTable;
  sessions: SessionsTable;
  setup_tokens: SetupTokensTable;
  invitations: InvitationsTable;
  invitation_projects: InvitationProjectsTable;
  password_resets: PasswordResetsTable;
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
  status_renames: StatusRenamesTable;
  task_labels: TaskLabelsTable;
  task_followers: TaskFollowersTable;
  task_unfollows: TaskUnfollowsTable;
  activities: ActivitiesTable;
  task_changes: TaskChangesTable;
  event_outbox: EventOutboxTable;
  live_events: LiveEventsTable;
  task_links: TaskLinksTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  notifications: NotificationsTable;
  notification_preferences: NotificationPreferencesTable;
  installation_secrets: InstallationSecretsTable;
  task_due_notices: TaskDueNoticesTable;
  task_overdue_notices: TaskOverdueNoticesTable;
  standup_digests: StandupDigestsTable;
  task_escalations: TaskEscalationsTable;
  standup_settings: StandupSettingsTable;
  standup_entries: StandupEntriesTable;
  standup_blockers: StandupBlockersTable;
  custom_fields: CustomFieldsTable;
  custom_field_projects: CustomFieldProjectsTable;
  custom_field_options: CustomFieldOptionsTable;
  task_custom_values: TaskCustomValuesTable;
  comments: CommentsTable;
  attachments: AttachmentsTable;
  time_entries: TimeEntriesTable;
  saved_views: SavedViewsTable;
  retention_horizons: RetentionHorizonsTable;
  live_event_marks: LiveEventMarksTable;
  oidc_identities: OidcIdentitiesTable;
  oidc_logins: OidcLoginsTable;
  oidc_mappings: OidcMappingsTable;
  audit_records: AuditRecordsTable;
}

/** A person's link to their subject at the OpenID provider (src/modules/oidc/). */
export interface OidcIdentitiesTable {
  id: Generated<number>;
  user_id: number;
  issuer: string;
  subject: string;
  created_at: string;
  last_sign_in_at: string;
}

/** One OpenID Connect flow between the redirect to the provider and its return; single use. */
export interface OidcLoginsTable {
  id: Generated<number>;
  state_hash: string;
  nonce: string;
  code_verifier: string;
  purpose: 'sign-in' | 'test';
  /** The owner who started a test sign-in; null for a sign-in. */
  requested_by: number | null;
  /** Where the browser goes after a sign-in (a path on this site). */
  next_path: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** A test sign-in's outcome (JSON), shown to the owner who started it. */
  result: string | null;
}

/** An organization's group mapping saved in Settings → Sign-in (migration 0043); replaces the OIDC_*_MAP variables. */
export interface OidcMappingsTable {
  organization_id: number;
  groups_claim: string;
  /** JSON: [{ group, role }] with a workspace role. */
  role_map: string;
  /** JSON: [{ group, project (its key), role }] with a project role. */
  project_map: string;
  updated_at: string;
  updated_by: number | null;
}

/** One organization-level change (migration 0031): written once, in the change's transaction; never updated. */
export interface AuditRecordsTable {
  id: Generated<number>;
  organization_id: number;
  occurred_at: string;
  /** One of AUDIT_ACTIONS (src/modules/audit/actions.ts). */
  action: string;
  /** The person or service account that acted; null when nobody was signed in (a failed sign-in) or the system acted. */
  actor_id: number | null;
  /** The actor's name when recorded (or what acted: "system", the e-mail a failed sign-in tried). */
  actor_label: string;
  /** The API token the actor used, or null. */
  token_id: number | null;
  /** The session the actor used, or null. */
  session_id: number | null;
  /** 'app' (a session), 'api' (a token), 'agent', 'scheduler' (the worker) or 'operator' (the command line). */
  source: string;
  target_type: string | null;
  target_id: number | null;
  /** The target's name when recorded: it stays readable after the target is deleted. */
  target_label: string | null;
  /** The project the change concerns, or null for the organization itself: admins see a record only when they see its project. */
  project_id: number | null;
  /** JSON objects of the changed fields before and after, or null. */
  before: string | null;
  after: string | null;
  /** The client address the request came from (TRUST_PROXY decides which), or null outside a request. */
  address: string | null;
  /** The request id: the same correlation_id as the change's events and the request log's request_id. */
  correlation_id: string;
}
