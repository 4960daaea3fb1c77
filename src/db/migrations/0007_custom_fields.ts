import type { MigrationContext } from './helpers.ts';
import { withId } from './helpers.ts';

/**
 * Workspace-wide custom field definitions, their options, the projects they apply to, and the
 * values tasks hold. A value is JSON text; select and multi_select values hold option ids, so
 * renaming or reordering options never rewrites them.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await withId(dialect, db.schema.createTable('custom_fields'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
    // 1: applies to every project of the workspace (API `projects: null`); 0: to custom_field_projects.
    .addColumn('all_projects', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('custom_fields_org_name_unique', ['organization_id', 'name'])
    .execute();

  await withId(dialect, db.schema.createTable('custom_field_projects'))
    .addColumn('field_id', 'integer', (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addUniqueConstraint('custom_field_projects_unique', ['field_id', 'project_id'])
    .execute();
  await db.schema
    .createIndex('custom_field_projects_project_idx')
    .on('custom_field_projects')
    .column('project_id')
    .execute();

  // Option values are unique per field, checked by the service under the definition's lock: a
  // database constraint would refuse a PUT that swaps two values midway.
  await withId(dialect, db.schema.createTable('custom_field_options'))
    .addColumn('field_id', 'integer', (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('custom_field_options_field_idx').on('custom_field_options').column('field_id').execute();

  await withId(dialect, db.schema.createTable('task_custom_values'))
    .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('field_id', 'integer', (c) => c.notNull().references('custom_fields.id').onDelete('cascade'))
    .addColumn('value', 'text', (c) => c.notNull())
    .addUniqueConstraint('task_custom_values_unique', ['task_id', 'field_id'])
    .execute();
  await db.schema.createIndex('task_custom_values_field_idx').on('task_custom_values').column('field_id').execute();
}
