import type { MigrationContext } from './helpers.ts';
import { withId } from './helpers.ts';

export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await withId(dialect, db.schema.createTable('organizations'))
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await withId(dialect, db.schema.createTable('users'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('email', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('users_org_email_unique', ['organization_id', 'email'])
    .execute();

  await withId(dialect, db.schema.createTable('api_tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_prefix', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('project_ids', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('revoked_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await withId(dialect, db.schema.createTable('projects'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('workflow_id', 'integer')
    .addColumn('default_status_id', 'integer')
    .addColumn('default_task_type_id', 'integer')
    .addColumn('default_priority_id', 'integer')
    .addColumn('task_counter', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('projects_org_key_unique', ['organization_id', 'key'])
    .execute();

  await withId(dialect, db.schema.createTable('project_memberships'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('memberships_project_user_unique', ['project_id', 'user_id'])
    .execute();
  await db.schema.createIndex('memberships_user_idx').on('project_memberships').column('user_id').execute();

  await withId(dialect, db.schema.createTable('statuses'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('statuses_project_name_unique', ['project_id', 'name'])
    .execute();

  await withId(dialect, db.schema.createTable('workflows'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('workflows_project_idx').on('workflows').column('project_id').execute();

  await withId(dialect, db.schema.createTable('transitions'))
    .addColumn('workflow_id', 'integer', (c) => c.notNull().references('workflows.id').onDelete('cascade'))
    .addColumn('from_status_id', 'integer', (c) => c.notNull().references('statuses.id').onDelete('cascade'))
    .addColumn('to_status_id', 'integer', (c) => c.notNull().references('statuses.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('transitions_pair_unique', ['workflow_id', 'from_status_id', 'to_status_id'])
    .execute();

  await withId(dialect, db.schema.createTable('task_types'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addUniqueConstraint('task_types_project_name_unique', ['project_id', 'name'])
    .execute();

  await withId(dialect, db.schema.createTable('priorities'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addUniqueConstraint('priorities_project_name_unique', ['project_id', 'name'])
    .execute();

  await withId(dialect, db.schema.createTable('idempotency_keys'))
    .addColumn('token_id', 'integer', (c) => c.notNull().references('api_tokens.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('lease_expires_at', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('idempotency_token_key_unique', ['token_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_created_idx').on('idempotency_keys').column('created_at').execute();
}
