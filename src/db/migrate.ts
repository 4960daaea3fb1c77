import { Migrator, sql, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
import type { DatabaseHandle } from './database.ts';
import type { MigrationContext } from './migrations/helpers.ts';
import * as foundation from './migrations/0001_foundation.ts';
import * as tasks from './migrations/0002_tasks.ts';
import * as links from './migrations/0003_links.ts';
import * as workflowsExtra from './migrations/0004_workflows_extra.ts';
import * as webhooks from './migrations/0005_webhooks.ts';
import * as search from './migrations/0006_search.ts';
import * as customFields from './migrations/0007_custom_fields.ts';
import * as taskRecords from './migrations/0008_task_records.ts';
import * as standups from './migrations/0009_standups.ts';
import * as searchScope from './migrations/0010_search_scope.ts';
import * as readPaths from './migrations/0011_read_paths.ts';
import * as accessPolicy from './migrations/0012_access_policy.ts';
import * as people from './migrations/0013_people.ts';
import * as liveEvents from './migrations/0014_live_events.ts';
import * as searchTiers from './migrations/0015_search_tiers.ts';
import * as labelledTasksIndex from './migrations/0016_labelled_tasks_index.ts';
import * as searchPrefixes from './migrations/0017_search_prefixes.ts';
import * as tokenIssuers from './migrations/0018_token_issuers.ts';
import * as boardColumns from './migrations/0019_board_columns.ts';
import * as invitationProjects from './migrations/0020_invitation_projects.ts';
import * as accountHandles from './migrations/0021_account_handles.ts';
import * as savedViews from './migrations/0022_saved_views.ts';
import * as retention from './migrations/0023_retention.ts';
import * as notifications from './migrations/0024_notifications.ts';
import * as queryFilters from './migrations/0025_query_filters.ts';
import * as overdueNotices from './migrations/0026_overdue_notices.ts';
import * as relatedProject from './migrations/0027_related_project.ts';
import * as planningFields from './migrations/0028_planning_fields.ts';
import * as reportHistory from './migrations/0029_report_history.ts';
import * as oidc from './migrations/0030_oidc.ts';
import * as auditLog from './migrations/0031_audit_log.ts';
import * as eventOrder from './migrations/0033_event_order.ts';
import * as idlePolls from './migrations/0035_idle_polls.ts';
import * as mentionSources from './migrations/0037_mention_sources.ts';
import * as standupDigests from './migrations/0038_standup_digests.ts';
import * as taskUnfollows from './migrations/0039_task_unfollows.ts';
import * as eventRecipients from './migrations/0041_event_recipients.ts';
import * as oidcMappings from './migrations/0043_oidc_mappings.ts';
import * as webhookFormats from './migrations/0048_webhook_formats.ts';
import * as queryOrderIndexes from './migrations/0050_query_order_indexes.ts';

interface DialectMigration {
  up(context: MigrationContext): Promise<void>;
}

/** Ordered list; names are permanent once released. */
const MIGRATIONS: Array<[string, DialectMigration]> = [
  ['0001_foundation', foundation],
  ['0002_tasks', tasks],
  ['0003_links', links],
  ['0004_workflows_extra', workflowsExtra],
  ['0005_webhooks', webhooks],
  ['0006_search', search],
  ['0007_custom_fields', customFields],
  ['0008_task_records', taskRecords],
  ['0009_standups', standups],
  ['0010_search_scope', searchScope],
  ['0011_read_paths', readPaths],
  ['0012_access_policy', accessPolicy],
  ['0013_people', people],
  ['0014_live_events', liveEvents],
  ['0015_search_tiers', searchTiers],
  ['0016_labelled_tasks_index', labelledTasksIndex],
  ['0017_search_prefixes', searchPrefixes],
  ['0018_token_issuers', tokenIssuers],
  ['0019_board_columns', boardColumns],
  ['0020_invitation_projects', invitationProjects],
  ['0021_account_handles', accountHandles],
  ['0022_saved_views', savedViews],
  ['0023_retention', retention],
  ['0024_notifications', notifications],
  ['0025_query_filters', queryFilters],
  ['0026_overdue_notices', overdueNotices],
  ['0027_related_project', relatedProject],
  ['0028_planning_fields', planningFields],
  ['0029_report_history', reportHistory],
  ['0030_oidc', oidc],
  ['0031_audit_log', auditLog],
  ['0033_event_order', eventOrder],
  ['0035_idle_polls', idlePolls],
  ['0037_mention_sources', mentionSources],
  ['0038_standup_digests', standupDigests],
  ['0039_task_unfollows', taskUnfollows],
  ['0041_event_recipients', eventRecipients],
  ['0043_oidc_mappings', oidcMappings],
  ['0048_webhook_formats', webhookFormats],
  ['0050_query_order_indexes', queryOrderIndexes],
];

/** Every migration of this version, in the order they run. */
export const MIGRATION_NAMES: readonly string[] = MIGRATIONS.map(([name]) => name);

class StaticProvider implements MigrationProvider {
  constructor(private readonly handle: DatabaseHandle) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const dialect = this.handle.dialect;
    return Object.fromEntries(
      MIGRATIONS.map(([name, migration]) => [name, { up: (db) => migration.up({ db, dialect }) }]),
    );
  }
}

/**
 * Applies pending migrations; returns the names applied. A database already up to date is
 * recognised by reading our own bookkeeping table, without Kysely's migrator: that
 * migrator lists the tables of every schema in the database, which is slow on a shared
 * PostgreSQL server and fails if another schema is dropped meanwhile, and it would make
 * every process start wait on the database-wide migration lock.
 */
export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  const schema = handle.dialect === 'postgres' ? (handle.pgSchema ?? (await currentSchema(handle))) : undefined;
  const status = statusOf(await appliedMigrationNames(handle, schema));
  if (status.unknown.length > 0) throw new Error(newerSchemaMessage(status));
  if (status.pending.length === 0) return [];

  const migrator = new Migrator({
    db: handle.db,
    provider: new StaticProvider(handle),
    // Kysely looks for its bookkeeping tables across schemas; pin them to ours.
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export interface MigrationStatus {
  /** Migrations recorded as applied, in order. */
  applied: string[];
  /** Migrations of this version not applied yet, in the order they would run. */
  pending: string[];
  /** Applied migrations this version does not know: a newer version migrated the database. */
  unknown: string[];
}

function statusOf(applied: string[] | null): MigrationStatus {
  const done = new Set(applied ?? []);
  const known = new Set(MIGRATION_NAMES);
  return {
    applied: applied ?? [],
    pending: MIGRATION_NAMES.filter((name) => !done.has(name)),
    unknown: (applied ?? []).filter((name) => !known.has(name)),
  };
}

/** What `migrate` would do, without doing it (and without taking the migration lock). */
export async function migrationStatus(handle: DatabaseHandle): Promise<MigrationStatus> {
  const schema = handle.dialect === 'postgres' ? (handle.pgSchema ?? (await currentSchema(handle))) : undefined;
  return statusOf(await appliedMigrationNames(handle, schema));
}

function newerSchemaMessage(status: MigrationStatus): string {
  return `the database was migrated by a newer version of tasktracker (it has ${status.unknown.join(', ')}, which this version does not know): run that version, or restore a backup taken before the upgrade (docs/operating/upgrades.md)`;
}

/**
 * Refuses a database whose schema is not exactly this version's: commands other than
 * `migrate`, `serve` and `worker` never migrate, so an upgrade is applied only when the operator
 * asks for it, and `migrate` reports what it applied.
 */
export async function assertSchemaCurrent(handle: DatabaseHandle): Promise<void> {
  const status = await migrationStatus(handle);
  if (status.unknown.length > 0) throw new Error(newerSchemaMessage(status));
  if (status.pending.length === 0) return;
  const what =
    status.applied.length === 0
      ? 'the database has no schema yet'
      : `the database schema is out of date: ${status.pending.length} migration${status.pending.length === 1 ? '' : 's'} pending (${status.pending.join(', ')})`;
  throw new Error(
    `${what}; run \`tasktracker migrate\` first, with every process of the previous version stopped (docs/operating/upgrades.md)`,
  );
}

/**
 * Applies pending migrations up to and including `name`: for tests of what a migration does to
 * data written before it.
 */
export async function migrateTo(handle: DatabaseHandle, name: string): Promise<void> {
  const schema = handle.dialect === 'postgres' ? (handle.pgSchema ?? (await currentSchema(handle))) : undefined;
  const migrator = new Migrator({
    db: handle.db,
    provider: new StaticProvider(handle),
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateTo(name);
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

/** Names recorded in our `kysely_migration`, in order; null before the first migration. */
async function appliedMigrationNames(handle: DatabaseHandle, schema: string | undefined): Promise<string[] | null> {
  if (!(await migrationTableExists(handle, schema))) return null;
  const table = schema ? sql.id(schema, 'kysely_migration') : sql.id('kysely_migration');
  const { rows } = await sql<{ name: string }>`select name from ${table} order by name`.execute(handle.db);
  return rows.map((row) => row.name);
}

async function migrationTableExists(handle: DatabaseHandle, schema: string | undefined): Promise<boolean> {
  if (handle.dialect === 'sqlite') {
    const { rows } = await sql`select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(
      handle.db,
    );
    return rows.length > 0;
  }
  // No schema on the search_path exists yet: nothing can have been migrated.
  if (!schema) return false;
  const { rows } = await sql<{
    found: string | null;
  }>`select to_regclass(format('%I.%I', ${schema}::text, 'kysely_migration'))::text as found`.execute(handle.db);
  return rows[0]?.found != null;
}

/** The schema unqualified names resolve to (the first on the search_path that exists). */
async function currentSchema(handle: DatabaseHandle): Promise<string | undefined> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(handle.db);
  return rows[0]?.schema ?? undefined;
}
