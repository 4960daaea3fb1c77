import { sql } from 'kysely';
import { withId, type MigrationContext } from './helpers.ts';

/**
 * The live stream's source of truth (docs/api/live-updates.md): one small row per change of a
 * task (its links and attachments included), a comment or a project's settings, written by
 * triggers in the transaction of the
 * change, so every writer (API, scheduler, CLI, another process, a hand edit) is covered and
 * a row exists if and only if the change committed.
 *
 * On PostgreSQL a row also carries the id of the transaction that wrote it (`tx`), and a
 * statement trigger sends NOTIFY, which PostgreSQL delivers only on commit. Sequence values
 * are taken before commit, so ids alone commit out of order; readers go by (tx, id) and stop
 * at the oldest transaction still running (src/modules/live/live.repository.ts). SQLite has
 * one writer at a time, so its ids are already in commit order and `tx` stays 0.
 */

/** Tables that hold a project's settings, with the `action` their changes report. */
const SETTINGS: Array<[table: string, action: string]> = [
  ['project_memberships', 'members'],
  ['statuses', 'statuses'],
  ['workflows', 'workflows'],
  ['task_types', 'task_types'],
  ['priorities', 'priorities'],
  ['labels', 'labels'],
  ['milestones', 'milestones'],
  ['sprints', 'sprints'],
  ['custom_field_projects', 'custom_fields'],
];

/** Project columns shown as its settings (task_counter moves with every task creation and is not one). */
const PROJECT_COLUMNS =
  'key, name, description, workflow_id, default_status_id, default_task_type_id, default_priority_id';

const OPS = [
  ['INSERT', 'NEW'],
  ['UPDATE', 'NEW'],
  ['DELETE', 'OLD'],
] as const;

export async function up({ db, dialect }: MigrationContext): Promise<void> {
  await withId(dialect, db.schema.createTable('live_events'))
    .addColumn('tx', 'bigint', (c) =>
      c.notNull().defaultTo(dialect === 'postgres' ? sql`(pg_current_xact_id()::text::bigint)` : 0),
    )
    .addColumn('project_id', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('task_key', 'text')
    .addColumn('version', 'integer')
    .execute();
  await db.schema.createIndex('live_events_position_idx').on('live_events').columns(['tx', 'id']).execute();

  if (dialect === 'postgres') await postgresTriggers(db);
  else await sqliteTriggers(db);
}

async function postgresTriggers(db: MigrationContext['db']): Promise<void> {
  await sql`CREATE FUNCTION live_notify() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM pg_notify('tasktracker_live', '');
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER live_events_notify AFTER INSERT ON live_events
    FOR EACH STATEMENT EXECUTE FUNCTION live_notify()`.execute(db);

  await sql`CREATE FUNCTION live_task_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO live_events (project_id, kind, action, task_key, version)
      VALUES (NEW.project_id, 'task', NEW.action, NEW.task_key,
        CASE WHEN NEW.action = 'deleted' THEN NULL ELSE (SELECT version FROM tasks WHERE id = NEW.task_id) END);
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER task_changes_live AFTER INSERT ON task_changes
    FOR EACH ROW EXECUTE FUNCTION live_task_change()`.execute(db);

  // Only the scheduler's entries: every other activity row comes with a change record already.
  await sql`CREATE FUNCTION live_task_notice() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO live_events (project_id, kind, action, task_key, version)
      SELECT t.project_id, 'task', NEW.action, t.key, t.version FROM tasks t WHERE t.id = NEW.task_id;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER activities_live AFTER INSERT ON activities
    FOR EACH ROW WHEN (NEW.action IN ('due_soon', 'escalated')) EXECUTE FUNCTION live_task_notice()`.execute(db);

  // Links and attachments are not task fields (no new version), but a task's page shows them.
  // Rows going with a deleted task find no task and report nothing; a link's other end still does.
  await sql`CREATE FUNCTION live_task_part() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      part record;
    BEGIN
      IF TG_OP = 'DELETE' THEN part := OLD; ELSE part := NEW; END IF;
      IF TG_TABLE_NAME = 'task_links' THEN
        INSERT INTO live_events (project_id, kind, action, task_key, version)
        SELECT t.project_id, 'task', 'links', t.key, t.version FROM tasks t WHERE t.id IN (part.from_task_id, part.to_task_id) ORDER BY t.id;
      ELSE
        INSERT INTO live_events (project_id, kind, action, task_key, version)
        SELECT t.project_id, 'task', 'attachments', t.key, t.version FROM tasks t WHERE t.id = part.task_id;
      END IF;
      RETURN NULL;
    END $$`.execute(db);
  for (const table of ['task_links', 'attachments']) {
    await sql`CREATE TRIGGER ${sql.id(`${table}_live`)} AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(table)}
      FOR EACH ROW EXECUTE FUNCTION live_task_part()`.execute(db);
  }

  // A comment of a task being deleted finds no task and reports nothing: the task's deletion says it all.
  await sql`CREATE FUNCTION live_comment_change() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      task integer := CASE WHEN TG_OP = 'DELETE' THEN OLD.task_id ELSE NEW.task_id END;
      act text := CASE TG_OP WHEN 'INSERT' THEN 'created' WHEN 'UPDATE' THEN 'updated' ELSE 'deleted' END;
    BEGIN
      INSERT INTO live_events (project_id, kind, action, task_key)
      SELECT t.project_id, 'comment', act, t.key FROM tasks t WHERE t.id = task;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER comments_live AFTER INSERT OR UPDATE OR DELETE ON comments
    FOR EACH ROW EXECUTE FUNCTION live_comment_change()`.execute(db);

  // A settings row of a project being deleted reports nothing (the project is gone, and nobody sees it).
  await sql`CREATE FUNCTION live_project_change() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      project integer;
      act text := TG_ARGV[0];
    BEGIN
      IF TG_TABLE_NAME = 'projects' THEN
        project := NEW.id;
        IF TG_OP = 'INSERT' THEN act := 'created'; END IF;
      ELSIF TG_OP = 'DELETE' THEN
        project := OLD.project_id;
      ELSE
        project := NEW.project_id;
      END IF;
      INSERT INTO live_events (project_id, kind, action)
      SELECT id, 'project', act FROM projects WHERE id = project;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER projects_live AFTER INSERT OR UPDATE OF ${sql.raw(PROJECT_COLUMNS)} ON projects
    FOR EACH ROW EXECUTE FUNCTION live_project_change('updated')`.execute(db);
  for (const [table, action] of SETTINGS) {
    await sql`CREATE TRIGGER ${sql.id(`${table}_live`)} AFTER INSERT OR UPDATE OR DELETE ON ${sql.table(table)}
      FOR EACH ROW EXECUTE FUNCTION live_project_change(${sql.lit(action)})`.execute(db);
  }
  // Transitions belong to a workflow, which belongs to a project.
  await sql`CREATE FUNCTION live_transition_change() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      workflow integer := CASE WHEN TG_OP = 'DELETE' THEN OLD.workflow_id ELSE NEW.workflow_id END;
    BEGIN
      INSERT INTO live_events (project_id, kind, action)
      SELECT w.project_id, 'project', 'transitions' FROM workflows w JOIN projects p ON p.id = w.project_id WHERE w.id = workflow;
      RETURN NULL;
    END $$`.execute(db);
  await sql`CREATE TRIGGER transitions_live AFTER INSERT OR UPDATE OR DELETE ON transitions
    FOR EACH ROW EXECUTE FUNCTION live_transition_change()`.execute(db);
}

/** SQLite triggers name one event each and run per row; the same rows as on PostgreSQL. */
async function sqliteTriggers(db: MigrationContext['db']): Promise<void> {
  await sql`CREATE TRIGGER task_changes_live AFTER INSERT ON task_changes BEGIN
    INSERT INTO live_events (project_id, kind, action, task_key, version)
    VALUES (NEW.project_id, 'task', NEW.action, NEW.task_key,
      CASE WHEN NEW.action = 'deleted' THEN NULL ELSE (SELECT version FROM tasks WHERE id = NEW.task_id) END);
  END`.execute(db);
  await sql`CREATE TRIGGER activities_live AFTER INSERT ON activities WHEN NEW.action IN ('due_soon', 'escalated') BEGIN
    INSERT INTO live_events (project_id, kind, action, task_key, version)
    SELECT t.project_id, 'task', NEW.action, t.key, t.version FROM tasks t WHERE t.id = NEW.task_id;
  END`.execute(db);
  for (const [op, row] of OPS) {
    const act = { INSERT: 'created', UPDATE: 'updated', DELETE: 'deleted' }[op];
    await sql`CREATE TRIGGER ${sql.id(`comments_live_${op.toLowerCase()}`)} AFTER ${sql.raw(op)} ON comments BEGIN
      INSERT INTO live_events (project_id, kind, action, task_key)
      SELECT t.project_id, 'comment', ${sql.lit(act)}, t.key FROM tasks t WHERE t.id = ${sql.raw(row)}.task_id;
    END`.execute(db);
    await sql`CREATE TRIGGER ${sql.id(`task_links_live_${op.toLowerCase()}`)} AFTER ${sql.raw(op)} ON task_links BEGIN
      INSERT INTO live_events (project_id, kind, action, task_key, version)
      SELECT t.project_id, 'task', 'links', t.key, t.version FROM tasks t
      WHERE t.id IN (${sql.raw(row)}.from_task_id, ${sql.raw(row)}.to_task_id) ORDER BY t.id;
    END`.execute(db);
    await sql`CREATE TRIGGER ${sql.id(`attachments_live_${op.toLowerCase()}`)} AFTER ${sql.raw(op)} ON attachments BEGIN
      INSERT INTO live_events (project_id, kind, action, task_key, version)
      SELECT t.project_id, 'task', 'attachments', t.key, t.version FROM tasks t WHERE t.id = ${sql.raw(row)}.task_id;
    END`.execute(db);
    for (const [table, action] of SETTINGS) {
      await sql`CREATE TRIGGER ${sql.id(`${table}_live_${op.toLowerCase()}`)} AFTER ${sql.raw(op)} ON ${sql.table(table)} BEGIN
        INSERT INTO live_events (project_id, kind, action)
        SELECT id, 'project', ${sql.lit(action)} FROM projects WHERE id = ${sql.raw(row)}.project_id;
      END`.execute(db);
    }
    await sql`CREATE TRIGGER ${sql.id(`transitions_live_${op.toLowerCase()}`)} AFTER ${sql.raw(op)} ON transitions BEGIN
      INSERT INTO live_events (project_id, kind, action)
      SELECT w.project_id, 'project', 'transitions' FROM workflows w JOIN projects p ON p.id = w.project_id WHERE w.id = ${sql.raw(row)}.workflow_id;
    END`.execute(db);
  }
  await sql`CREATE TRIGGER projects_live_insert AFTER INSERT ON projects BEGIN
    INSERT INTO live_events (project_id, kind, action) VALUES (NEW.id, 'project', 'created');
  END`.execute(db);
  await sql`CREATE TRIGGER projects_live_update AFTER UPDATE OF ${sql.raw(PROJECT_COLUMNS)} ON projects BEGIN
    INSERT INTO live_events (project_id, kind, action) VALUES (NEW.id, 'project', 'updated');
  END`.execute(db);
}
