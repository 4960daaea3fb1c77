import type { MigrationContext } from './helpers.ts';
import { withId } from './helpers.ts';

/**
 * Saved views (docs/api/views.md): a named query with how to show its tasks, private to its
 * creator or shared with everyone who sees its project (or the organization, for a view of no
 * project). Deleting the project or the creator's account deletes the view.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await withId(dialect, db.schema.createTable('saved_views'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('created_by', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('layout', 'text', (c) => c.notNull())
    .addColumn('group_by', 'text')
    .addColumn('columns', 'text', (c) => c.notNull())
    .addColumn('shared', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('saved_views_org_idx').on('saved_views').columns(['organization_id', 'id']).execute();
  await db.schema.createIndex('saved_views_project_idx').on('saved_views').column('project_id').execute();
}
