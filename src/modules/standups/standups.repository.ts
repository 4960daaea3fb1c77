import type { ExpressionBuilder } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { Database, StandupEntriesTable, StatusCategory } from '../../db/schema.ts';
import type { Principal } from '../auth/principal.ts';
import { visibleProjectIds } from '../../policy/index.ts';
import type { StandupEntryJson } from './standups.schemas.ts';

/** A task as frozen into an entry. `project_id` decides who may see it later; it is never shown. */
export interface FrozenTask {
  key: string;
  title: string;
  status: string;
  status_category: StatusCategory;
  project_id: number;
}

export interface BlockerValues {
  text: string;
  task_key: string | null;
  project_id: number | null;
  since: string;
}

export type EntryRow = Omit<StandupEntriesTable, 'id'> & { id: number };

type WorklistScope = ExpressionBuilder<Database & { t: Database['tasks'] }, 't'>;

/** "The person changed this task today": an activity row of theirs on it since the team day began. */
function changedSince(eb: WorklistScope, userId: number, sinceIso: string) {
  return eb.exists(
    eb
      .selectFrom('activities as a')
      .select('a.id')
      .whereRef('a.task_id', '=', 't.id')
      .where('a.actor_id', '=', userId)
      .where('a.created_at', '>=', sinceIso),
  );
}

/**
 * A person's worklist, live (spec 4.4 rule 4): tasks assigned to them that are in an
 * in_progress-category status or that they changed today, limited to projects the caller
 * can see. Reassigning a task moves it between worklists at once: nothing is cached.
 */
export function worklistQuery(db: Executor, caller: Principal, userId: number, dayStartIso: string) {
  return db
    .selectFrom('tasks as t')
    .innerJoin('projects as p', 'p.id', 't.project_id')
    .innerJoin('statuses as s', 's.id', 't.status_id')
    .innerJoin('priorities as pr', 'pr.id', 't.priority_id')
    .where('t.assignee_id', '=', userId)
    .where('t.project_id', 'in', visibleProjectIds(db, caller))
    .where((eb) => eb.or([eb('s.category', '=', 'in_progress'), changedSince(eb, userId, dayStartIso)]))
    .select((eb) => [
      't.id',
      't.key',
      't.project_id',
      'p.key as project',
      't.title',
      's.name as status',
      's.category as status_category',
      'pr.name as priority',
      't.updated_at',
      changedSince(eb, userId, dayStartIso).as('changed_today'),
    ]);
}

export async function userInOrganization(db: Executor, userId: number, organizationId: number): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('id', '=', userId).where('organization_id', '=', organizationId).executeTakeFirst();
  return row !== undefined;
}

export async function visibleProjectIdSet(db: Executor, caller: Principal): Promise<Set<number>> {
  const rows = await visibleProjectIds(db, caller).execute();
  return new Set(rows.map((r) => r.id));
}

export function selectEntries(db: Executor) {
  return db.selectFrom('standup_entries as e').selectAll('e');
}

export async function findEntry(db: Executor, userId: number, date: string): Promise<EntryRow | undefined> {
  return selectEntries(db).where('e.user_id', '=', userId).where('e.date', '=', date).executeTakeFirst();
}

/** The person's latest submitted entry strictly before `date`: what "since your last entry" refers to. */
export async function previousSubmittedEntry(db: Executor, userId: number, date: string): Promise<EntryRow | undefined> {
  return selectEntries(db)
    .where('e.user_id', '=', userId)
    .where('e.state', '=', 'submitted')
    .where('e.date', '<', date)
    .orderBy('e.date', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function blockersOf(db: Executor, entryIds: number[]) {
  if (entryIds.length === 0) return [];
  return db
    .selectFrom('standup_blockers')
    .select(['entry_id', 'text', 'task_key', 'project_id', 'since'])
    .where('entry_id', 'in', entryIds)
    .orderBy('entry_id')
    .orderBy('position')
    .execute();
}

export async function replaceBlockers(db: Executor, entryId: number, blockers: BlockerValues[]): Promise<void> {
  await db.deleteFrom('standup_blockers').where('entry_id', '=', entryId).execute();
  if (blockers.length === 0) return;
  await db
    .insertInto('standup_blockers')
    .values(blockers.map((b, position) => ({ entry_id: entryId, position, ...b })))
    .execute();
}

/**
 * A page of entries as JSON. Blockers come from one query for the page. Whatever refers to a
 * project the caller cannot see (snapshot tasks, blockers about its tasks) is left out, so an
 * entry never discloses more than the caller could read in the project itself.
 */
export async function presentEntries(db: Executor, rows: EntryRow[], visible: Set<number>): Promise<StandupEntryJson[]> {
  const blockers = await blockersOf(db, rows.map((r) => r.id));
  return rows.map((row) => ({
    id: row.id,
    user: row.user_id,
    date: row.date,
    state: row.state,
    done: row.done,
    doing: row.doing,
    blockers: blockers
      .filter((b) => b.entry_id === row.id && (b.project_id === null || visible.has(b.project_id)))
      .map((b) => ({ text: b.text, task: b.task_key })),
    tasks: (JSON.parse(row.tasks) as FrozenTask[])
      .filter((task) => visible.has(task.project_id))
      .map(({ key, title, status, status_category }) => ({ key, title, status, status_category })),
    submitted_at: row.submitted_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }));
}
