import { withId, type MigrationContext } from './helpers.ts';

/**
 * The organization audit log (docs/operating/audit.md). Rows are written in the transaction of
 * the change they record and never updated; only the retention sweep removes them. No foreign
 * keys on purpose: deleting a project (or anything else a record names) must not take its
 * records with it, so names are copied into `target_label` and `actor_label` when recorded.
 *
 * - `audit_records_org_idx`: the log newest first, and the cursor walking it.
 * - `audit_records_action_idx`, `audit_records_actor_idx`: the filters by action and by actor.
 * - `audit_records_occurred_idx`: the retention sweep.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await withId(dialect, db.schema.createTable('audit_records'))
    .addColumn('organization_id', 'integer', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('actor_label', 'text', (c) => c.notNull())
    .addColumn('token_id', 'integer')
    .addColumn('session_id', 'integer')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'integer')
    .addColumn('target_label', 'text')
    .addColumn('project_id', 'integer')
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .addColumn('address', 'text')
    .addColumn('correlation_id', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_records_org_idx').on('audit_records').columns(['organization_id', 'id']).execute();
  await db.schema
    .createIndex('audit_records_action_idx')
    .on('audit_records')
    .columns(['organization_id', 'action', 'id'])
    .execute();
  await db.schema
    .createIndex('audit_records_actor_idx')
    .on('audit_records')
    .columns(['organization_id', 'actor_id', 'id'])
    .execute();
  await db.schema.createIndex('audit_records_occurred_idx').on('audit_records').column('occurred_at').execute();
}
