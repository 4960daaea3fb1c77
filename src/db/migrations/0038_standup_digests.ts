import { withId, type MigrationContext } from './helpers.ts';

/**
 * The daily standup digest (docs/api/notifications.md, "The daily digest"): one row per person
 * and team day, inserted in the transaction that notifies them, so several workers send it once.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await withId(dialect, db.schema.createTable('standup_digests'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('standup_digests_unique', ['user_id', 'date'])
    .execute();
}
