import type { MigrationContext } from './helpers.ts';
import { withId } from './helpers.ts';

/** Tasks and what hangs off them, the changes feed, activity and the event outbox. */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await withId(dialect, db.schema.createTable('milestones'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('due_date', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('open'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('milestones_project_name_unique', ['project_id', 'name'])
    .execute();

  await withId(dialect, db.schema.createTable('sprints'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('goal', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('start_date', 'text')
    .addColumn('end_date', 'text')
    .addColumn('state', 'text', (c) => c.notNull().defaultTo('planned'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('sprints_project_name_unique', ['project_id', 'name'])
    .execute();

  await withId(dialect, db.schema.createTable('labels'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('labels_project_name_unique', ['project_id', 'name'])
    .execute();

  await withId(dialect, db.schema.createTable('tasks'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('task_type_id', 'integer', (c) => c.notNull().references('task_types.id'))
    .addColumn('priority_id', 'integer', (c) => c.notNull().references('priorities.id'))
    // No cascade: a status that tasks use cannot be deleted.
    .addColumn('status_id', 'integer', (c) => c.notNull().references('statuses.id'))
    .addColumn('assignee_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('parent_id', 'integer', (c) => c.references('tasks.id').onDelete('set null'))
    .addColumn('due_date', 'text')
    .addColumn('milestone_id', 'integer', (c) => c.references('milestones.id').onDelete('set null'))
    .addColumn('sprint_id', 'integer', (c) => c.references('sprints.id').onDelete('set null'))
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('tasks_project_number_unique', ['project_id', 'number'])
    .execute();
  await db.schema.createIndex('tasks_key_idx').on('tasks').column('key').execute();
  await db.schema.createIndex('tasks_project_status_idx').on('tasks').columns(['project_id', 'status_id']).execute();
  await db.schema.createIndex('tasks_assignee_idx').on('tasks').column('assignee_id').execute();
  await db.schema.createIndex('tasks_parent_idx').on('tasks').column('parent_id').execute();
  await db.schema.createIndex('tasks_status_idx').on('tasks').column('status_id').execute();

  await withId(dialect, db.schema.createTable('task_labels'))
    .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('label_id', 'integer', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addUniqueConstraint('task_labels_unique', ['task_id', 'label_id'])
    .execute();
  await db.schema.createIndex('task_labels_label_idx').on('task_labels').column('label_id').execute();

  await withId(dialect, db.schema.createTable('task_followers'))
    .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('task_followers_unique', ['task_id', 'user_id'])
    .execute();

  await withId(dialect, db.schema.createTable('activities'))
    .addColumn('task_id', 'integer', (c) => c.notNull().references('tasks.id').onDelete('cascade'))
    .addColumn('actor_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('field', 'text')
    .addColumn('from_value', 'text')
    .addColumn('to_value', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('activities_task_idx').on('activities').columns(['task_id', 'id']).execute();

  // The changes feed. Rows outlive their task (a deletion is itself a change), so task_id has no foreign key.
  await withId(dialect, db.schema.createTable('task_changes'))
    .addColumn('project_id', 'integer', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('task_id', 'integer', (c) => c.notNull())
    .addColumn('task_key', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('task', 'text')
    .addColumn('changed_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('task_changes_project_idx').on('task_changes').columns(['project_id', 'id']).execute();
  await db.schema.createIndex('task_changes_changed_at_idx').on('task_changes').column('changed_at').execute();

  // Events written in the same transaction as the change that caused them; the worker fans them out.
  await withId(dialect, db.schema.createTable('event_outbox'))
    .addColumn('event_id', 'text', (c) => c.notNull().unique())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('project_id', 'integer', (c) => c.references('projects.id').onDelete('cascade'))
    .addColumn('actor_id', 'integer')
    .addColumn('correlation_id', 'text', (c) => c.notNull())
    .addColumn('envelope', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('fanned_out_at', 'text')
    .execute();
  await db.schema.createIndex('event_outbox_pending_idx').on('event_outbox').columns(['fanned_out_at', 'id']).execute();
}
