import { Migrator, type Migration, type MigrationProvider, type MigrationResultSet } from 'kysely';
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
];

class StaticProvider implements MigrationProvider {
  constructor(private readonly handle: DatabaseHandle) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const dialect = this.handle.dialect;
    return Object.fromEntries(
      MIGRATIONS.map(([name, migration]) => [name, { up: (db) => migration.up({ db, dialect }) }]),
    );
  }
}

export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  const migrator = new Migrator({
    db: handle.db,
    provider: new StaticProvider(handle),
    // Kysely looks for its bookkeeping tables across schemas; pin them to ours.
    ...(handle.pgSchema ? { migrationTableSchema: handle.pgSchema } : {}),
  });
  const { error, results }: MigrationResultSet = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
