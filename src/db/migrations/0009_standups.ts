import type { MigrationContext } from './helpers.ts';
import { withId } from './helpers.ts';

/**
 * Standups: per-organization settings, one entry per person per team-day, and the blockers
 * each entry declares. Task references inside entries are copies (key, title, status and the
 * project id as they were when written), never foreign keys: later renames, moves and
 * deletions must not change a past entry.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  // One row per organization, written on the first PATCH; until then the defaults apply.
  await db.schema
    .createTable('standup_settings')
    .addColumn('organization_id', 'integer', (c) => c.primaryKey().references('organizations.id').onDelete('cascade'))
    .addColumn('timezone', 'text', (c) => c.notNull())
    .addColumn('days', 'text', (c) => c.notNull())
    .addColumn('reminder_time', 'text', (c) => c.notNull())
    .addColumn('questions', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await withId(dialect, db.schema.createTable('standup_entries'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('done', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('doing', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('tasks', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('submitted_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('standup_entries_user_date_unique', ['user_id', 'date'])
    .execute();
  await db.schema
    .createIndex('standup_entries_org_date_idx')
    .on('standup_entries')
    .columns(['organization_id', 'date'])
    .execute();

  await withId(dialect, db.schema.createTable('standup_blockers'))
    .addColumn('entry_id', 'integer', (c) => c.notNull().references('standup_entries.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('task_key', 'text')
    // Deliberately no foreign key: a deleted project leaves an id nobody can see, so the
    // blocker stays hidden instead of turning into an unattributed, org-wide one.
    .addColumn('project_id', 'integer')
    .addColumn('since', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('standup_blockers_entry_idx')
    .on('standup_blockers')
    .columns(['entry_id', 'position'])
    .execute();
}
