import type { ExpressionBuilder } from 'kysely';
import type { Dialect, Executor } from '../../db/database.ts';
import { paginate } from '../../db/paginate.ts';
import type { Database, StandupEntriesTable, StandupState, StatusCategory } from '../../db/schema.ts';
import type { PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import { visibleProjectIds } from '../../policy/index.ts';

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
 * A person's worklist, live: tasks assigned to them that are in an in_progress-category
 * status or that they changed today, limited to projects the caller can see. Reassigning a
 * task moves it between worklists at once: nothing is cached.
 */
function worklistQuery(db: Executor, caller: Principal, userId: number, dayStartIso: string) {
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

/** One page of a person's worklist, most recently updated first unless the page asks otherwise. */
export function worklistPage(db: Executor, caller: Principal, userId: number, dayStartIso: string, page: PageRequest) {
  return paginate(worklistQuery(db, caller, userId, dayStartIso), page, {
    idColumn: 't.id',
    orderable: { updated_at: 't.updated_at', priority: 'pr.position' },
    defaultOrdering: '-updated_at',
  });
}

export async function userInOrganization(db: Executor, userId: number, organizationId: number): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where('id', '=', userId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
  return row !== undefined;
}

export async function visibleProjectIdSet(db: Executor, caller: Principal): Promise<Set<number>> {
  const rows = await visibleProjectIds(db, caller).execute();
  return new Set(rows.map((r) => r.id));
}

/** The first `limit` tasks of a person's worklist, most recently updated first: what an entry freezes. */
export function worklistSnapshot(db: Executor, caller: Principal, userId: number, dayStartIso: string, limit: number) {
  return worklistQuery(db, caller, userId, dayStartIso)
    .orderBy('t.updated_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(limit)
    .execute();
}

/**
 * Tasks the caller worked on since `sinceIso` (any activity row of theirs), in projects the
 * caller can see, in the order first touched: whether they moved it and whether they created it.
 */
export function workedOnSince(db: Executor, caller: Principal, sinceIso: string, limit: number) {
  return db
    .selectFrom('activities as a')
    .innerJoin('tasks as t', 't.id', 'a.task_id')
    .innerJoin('statuses as s', 's.id', 't.status_id')
    .where('a.actor_id', '=', caller.userId)
    .where('a.created_at', '>=', sinceIso)
    .where('t.project_id', 'in', visibleProjectIds(db, caller))
    .groupBy(['t.id', 't.key', 't.title', 's.name', 's.category'])
    .select((eb) => [
      't.key',
      't.title',
      's.name as status',
      's.category as status_category',
      eb.fn.max(eb.case().when('a.field', '=', 'status').then(1).else(0).end()).as('moved'),
      eb.fn.max(eb.case().when('a.action', '=', 'created').then(1).else(0).end()).as('created'),
    ])
    .orderBy((eb) => eb.fn.min('a.id'))
    .limit(limit)
    .execute();
}

function selectEntries(db: Executor) {
  return db.selectFrom('standup_entries as e').selectAll('e');
}

export function findEntryById(db: Executor, id: number): Promise<EntryRow | undefined> {
  return selectEntries(db).where('e.id', '=', id).executeTakeFirst();
}

/**
 * One page of the organization's entries of one day as `caller` may list them: other people's
 * drafts are theirs until submitted.
 */
export function entriesOfDayPage(
  db: Executor,
  caller: Principal,
  date: string,
  filters: { user?: number; state?: StandupState },
  page: PageRequest,
) {
  let query = selectEntries(db)
    .where('e.organization_id', '=', caller.organizationId)
    .where('e.date', '=', date)
    .where((eb) => eb.or([eb('e.state', '!=', 'draft'), eb('e.user_id', '=', caller.userId)]));
  if (filters.user !== undefined) query = query.where('e.user_id', '=', filters.user);
  if (filters.state !== undefined) query = query.where('e.state', '=', filters.state);
  return paginate(query, page, {
    idColumn: 'e.id',
    orderable: {
      user: 'e.user_id',
      date: 'e.date',
      submitted_at: 'e.submitted_at',
      created_at: 'e.created_at',
      updated_at: 'e.updated_at',
    },
    defaultOrdering: 'user',
  });
}

/** One page of a person's submitted and skipped entries before `date`, newest first unless the page asks otherwise. */
export function pastEntriesPage(db: Executor, organizationId: number, userId: number, date: string, page: PageRequest) {
  const query = selectEntries(db)
    .where('e.organization_id', '=', organizationId)
    .where('e.user_id', '=', userId)
    .where('e.state', 'in', ['submitted', 'skipped'])
    .where('e.date', '<', date);
  return paginate(query, page, { idColumn: 'e.id', orderable: { date: 'e.date' }, defaultOrdering: '-date' });
}

/**
 * The person's entry of `date`, created as an empty draft if missing, and held until commit
 * (PostgreSQL row lock; SQLite runs one transaction at a time).
 */
export async function lockDayEntry(
  db: Executor,
  dialect: Dialect,
  owner: { organizationId: number; userId: number },
  date: string,
  now: string,
): Promise<EntryRow> {
  await db
    .insertInto('standup_entries')
    .values({
      organization_id: owner.organizationId,
      user_id: owner.userId,
      date,
      state: 'draft',
      done: '',
      doing: '',
      tasks: '[]',
      submitted_at: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['user_id', 'date']).doNothing())
    .execute();
  let query = selectEntries(db).where('e.user_id', '=', owner.userId).where('e.date', '=', date);
  if (dialect === 'postgres') query = query.forUpdate();
  return query.executeTakeFirstOrThrow();
}

export type EntryChanges = Pick<
  StandupEntriesTable,
  'state' | 'done' | 'doing' | 'tasks' | 'submitted_at' | 'updated_at'
>;

export async function updateEntry(db: Executor, id: number, changes: EntryChanges): Promise<void> {
  await db.updateTable('standup_entries').set(changes).where('id', '=', id).execute();
}

export async function findEntry(db: Executor, userId: number, date: string): Promise<EntryRow | undefined> {
  return selectEntries(db).where('e.user_id', '=', userId).where('e.date', '=', date).executeTakeFirst();
}

/** The person's latest submitted entry strictly before `date`: what "since your last entry" refers to. */
export async function previousSubmittedEntry(
  db: Executor,
  userId: number,
  date: string,
): Promise<EntryRow | undefined> {
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
