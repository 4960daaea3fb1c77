import { isoFromMs } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { ApiError, invalid, notFound } from '../../http/errors.ts';
import { type PageRequest } from '../../http/pagination.ts';
import type { Principal } from '../../identity/principal.ts';
import type { Caller } from '../../identity/caller.ts';
import { type ActionOrigin, recordEvent } from '../../events/record-event.ts';
import { findVisibleTaskRef } from '../tasks/task.repository.ts';
import { type TeamDay, teamToday } from './settings.service.ts';
import {
  type BlockerValues,
  blockersOf,
  entriesOfDayPage,
  type EntryRow,
  findEntry,
  findEntryById,
  type FrozenTask,
  lockDayEntry,
  pastEntriesPage,
  previousSubmittedEntry,
  replaceBlockers,
  updateEntry,
  userInOrganization,
  visibleProjectIdSet,
  workedOnSince,
  worklistPage,
  worklistSnapshot,
} from './standups.repository.ts';
import { type EntryListFilters, type EntryPut, MAX_SNAPSHOT_TASKS, type StandupEntryJson } from './standups.schemas.ts';
import { previousDate, startOfLocalDay } from './team-day.ts';

/**
 * Standup entries (docs/domain/standups.md). Every write acts on the caller's own entry for
 * the team's current day: the person is always the token's account, and there is no way to
 * name anyone else.
 */

/**
 * A page of entries as JSON. Blockers come from one query for the page. Whatever refers to a
 * project the caller cannot see (snapshot tasks, blockers about its tasks) is left out, so an
 * entry never discloses more than the caller could read in the project itself.
 */
async function presentEntries(db: Executor, rows: EntryRow[], visible: Set<number>): Promise<StandupEntryJson[]> {
  const blockers = await blockersOf(
    db,
    rows.map((r) => r.id),
  );
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

async function presentOne(db: Executor, principal: Principal, row: EntryRow): Promise<StandupEntryJson> {
  const [entry] = await presentEntries(db, [row], await visibleProjectIdSet(db, principal));
  return entry!;
}

async function reload(db: Executor, principal: Principal, id: number): Promise<StandupEntryJson> {
  return presentOne(db, principal, (await findEntryById(db, id))!);
}

/**
 * Today's entry of the caller, created as an empty draft if missing, and held until commit, so
 * two writes of one person's day queue up instead of overwriting each other's checks.
 */
function lockTodaysEntry(tx: Tx, principal: Principal, date: string): Promise<EntryRow> {
  return lockDayEntry(tx.db, tx.dialect, principal, date, tx.clock.nowIso());
}

function alreadySubmitted(today: TeamDay, action: string): ApiError {
  return new ApiError(
    'STANDUP_ALREADY_SUBMITTED',
    `Today's entry (${today.date}) is already submitted, so it cannot be ${action}. PUT /api/v1/standups/me/ edits it.`,
    { date: today.date },
  );
}

// ---------------------------------------------------------------- reads

export async function getMyEntry(ctx: AppContext, principal: Principal): Promise<StandupEntryJson> {
  const today = await teamToday(ctx, principal.organizationId);
  const row = await findEntry(ctx.db, principal.userId, today.date);
  if (!row) {
    throw new ApiError(
      'NOT_FOUND',
      `You have no standup entry for today (${today.date}, ${today.timezone}) yet. PUT /api/v1/standups/me/ submits one; POST /api/v1/standups/me/redraft/ starts a draft.`,
      { date: today.date },
    );
  }
  return presentOne(ctx.db, principal, row);
}

export async function listEntries(ctx: AppContext, principal: Principal, filters: EntryListFilters, page: PageRequest) {
  const date = filters.date ?? (await teamToday(ctx, principal.organizationId)).date;
  const { rows, pagination } = await entriesOfDayPage(ctx.db, principal, date, filters, page);
  return { data: await presentEntries(ctx.db, rows, await visibleProjectIdSet(ctx.db, principal)), pagination };
}

async function assertSameOrganization(ctx: AppContext, principal: Principal, userId: number): Promise<void> {
  if (!(await userInOrganization(ctx.db, userId, principal.organizationId))) throw notFound('User');
}

/** The person's submitted and skipped days before today, newest first, exactly as written. */
export async function history(ctx: AppContext, principal: Principal, userId: number, page: PageRequest) {
  await assertSameOrganization(ctx, principal, userId);
  const today = await teamToday(ctx, principal.organizationId);
  const { rows, pagination } = await pastEntriesPage(ctx.db, principal.organizationId, userId, today.date, page);
  return { data: await presentEntries(ctx.db, rows, await visibleProjectIdSet(ctx.db, principal)), pagination };
}

/** A person's worklist: computed on every call from their tasks, today only. */
export async function worklist(ctx: AppContext, principal: Principal, userId: number, page: PageRequest) {
  await assertSameOrganization(ctx, principal, userId);
  const today = await teamToday(ctx, principal.organizationId);
  const { rows, pagination } = await worklistPage(ctx.db, principal, userId, today.startIso, page);
  return {
    data: rows.map((r) => ({
      key: r.key,
      project: r.project,
      title: r.title,
      status: r.status,
      status_category: r.status_category,
      priority: r.priority,
      changed_today: Boolean(r.changed_today),
      updated_at: r.updated_at,
    })),
    pagination,
  };
}

// ---------------------------------------------------------------- writes

/** The caller's worklist right now, most recently updated first, in the form frozen into an entry. */
async function currentWorklist(db: Executor, principal: Principal, today: TeamDay): Promise<FrozenTask[]> {
  const rows = await worklistSnapshot(db, principal, principal.userId, today.startIso, MAX_SNAPSHOT_TASKS);
  return rows.map((r) => ({
    key: r.key,
    title: r.title,
    status: r.status,
    status_category: r.status_category,
    project_id: r.project_id,
  }));
}

/** Blockers naming a task must name one the writer can see; it is recorded with its project for later visibility checks. */
async function resolveBlockers(ctx: AppContext, principal: Principal, blockers: NonNullable<EntryPut['blockers']>) {
  const errors: Record<string, string> = {};
  const resolved: Array<Omit<BlockerValues, 'since'>> = [];
  for (const [index, blocker] of blockers.entries()) {
    const text = blocker.text.trim();
    if (text === '') errors[`blockers[${index}].text`] = 'cannot be blank';
    let projectId: number | null = null;
    if (blocker.task) {
      const task = await findVisibleTaskRef(ctx.db, principal, blocker.task);
      if (task) projectId = task.project.id;
      else errors[`blockers[${index}].task`] = `no task ${blocker.task} in a project you can see`;
    }
    resolved.push({ text, task_key: blocker.task ?? null, project_id: projectId });
  }
  if (Object.keys(errors).length) throw invalid(errors);
  return resolved;
}

const normalized = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();

function sameBlocker(a: Omit<BlockerValues, 'since'>, b: Omit<BlockerValues, 'since'>): boolean {
  if (a.task_key !== null || b.task_key !== null) return a.task_key === b.task_key;
  return normalized(a.text) === normalized(b.text);
}

/**
 * A blocker keeps the date it was first declared while the person keeps declaring it: the
 * same task, or the same words when it names no task, in today's entry or their previous one.
 */
function withSince(
  blockers: Array<Omit<BlockerValues, 'since'>>,
  earlier: BlockerValues[],
  now: string,
): BlockerValues[] {
  return blockers.map((blocker) => {
    const since = earlier
      .filter((e) => sameBlocker(blocker, e))
      .map((e) => e.since)
      .sort()[0];
    return { ...blocker, since: since ?? now };
  });
}

/**
 * PUT me: writes today's entry and submits it. Omitted fields keep today's current values
 * (a redraft, or an earlier submission), so `{}` submits the draft as it is. The task
 * snapshot is the caller's worklist at this moment and is frozen from now on.
 */
export async function submitMyEntry(tx: Tx, caller: Caller, body: EntryPut): Promise<StandupEntryJson> {
  const { principal } = caller;
  const today = await teamToday(tx, principal.organizationId);
  const declared = body.blockers ? await resolveBlockers(tx, principal, body.blockers) : undefined;
  const snapshot = await currentWorklist(tx.db, principal, today);
  const entry = await lockTodaysEntry(tx, principal, today.date);
  const current = await blockersOf(tx.db, [entry.id]);
  const previous = await previousSubmittedEntry(tx.db, principal.userId, today.date);
  const previousBlockers = previous ? await blockersOf(tx.db, [previous.id]) : [];
  const now = tx.clock.nowIso();
  const done = body.done ?? entry.done;
  const doing = body.doing ?? entry.doing;
  await updateEntry(tx.db, entry.id, {
    state: 'submitted',
    done,
    doing,
    tasks: JSON.stringify(snapshot),
    submitted_at: now,
    updated_at: now,
  });
  const blockers = withSince(declared ?? current, [...current, ...previousBlockers], now);
  await replaceBlockers(tx.db, entry.id, blockers);
  // What the team last saw of this person: today's entry once submitted, else their previous submission.
  const announced = entry.state === 'submitted' ? current : previousBlockers;
  await recordSubmission(tx, caller.origin, { id: entry.id, user: principal.userId, date: today.date }, now, {
    done,
    doing,
    raised: blockers.filter((b) => b.since === now),
    cleared: announced.filter((was) => !blockers.some((b) => sameBlocker(b, was))),
  });
  return reload(tx.db, principal, entry.id);
}

/**
 * standup.submitted (organization-wide: its text is what everyone in the organization reads,
 * its tasks are left out), and one blocker event per blocker raised or cleared, each in the
 * project of the task it names (organization-wide when it names none).
 */
async function recordSubmission(
  tx: Tx,
  origin: ActionOrigin,
  entry: { id: number; user: number; date: string },
  now: string,
  what: { done: string; doing: string; raised: BlockerValues[]; cleared: BlockerValues[] },
): Promise<void> {
  await recordEvent(tx.db, {
    type: 'standup.submitted',
    origin,
    projectId: null,
    occurredAt: now,
    data: { entry: { ...entry, done: what.done, doing: what.doing, submitted_at: now } },
  });
  const blockerEvents = [
    ...what.raised.map((blocker) => ['standup.blocker_raised', blocker] as const),
    ...what.cleared.map((blocker) => ['standup.blocker_cleared', blocker] as const),
  ];
  for (const [type, blocker] of blockerEvents) {
    await recordEvent(tx.db, {
      type,
      origin,
      projectId: blocker.project_id,
      occurredAt: now,
      data: { blocker: { text: blocker.text, task: blocker.task_key, since: blocker.since }, entry },
    });
  }
}

/**
 * Redraft: rebuilds today's draft (never submits). `done` lists the tasks the caller worked on
 * since their last submitted entry (or since the start of yesterday when there is none), with
 * those moved into a done-category status marked so; `doing` lists their live worklist without
 * finished tasks; blockers carry over from their last submitted entry. A submitted day is
 * refused: redrafting would silently take it back from the team.
 */
export async function redraftMyEntry(tx: Tx, principal: Principal): Promise<StandupEntryJson> {
  const today = await teamToday(tx, principal.organizationId);
  const previous = await previousSubmittedEntry(tx.db, principal.userId, today.date);
  const sinceIso = previous?.submitted_at ?? isoFromMs(startOfLocalDay(today.timezone, previousDate(today.date)));
  const worked = await workedOnSince(tx.db, principal, sinceIso, MAX_SNAPSHOT_TASKS);
  const inFlight = (await currentWorklist(tx.db, principal, today)).filter((t) => t.status_category !== 'done');
  const carried = previous ? await blockersOf(tx.db, [previous.id]) : [];

  const done = worked
    .map((t) => {
      const what =
        Number(t.moved) && t.status_category === 'done'
          ? `moved to ${t.status}`
          : Number(t.created)
            ? 'created'
            : 'updated';
      return `- ${t.key} ${t.title}: ${what}`;
    })
    .join('\n');
  const doing = inFlight.map((t) => `- ${t.key} ${t.title} (${t.status})`).join('\n');

  const entry = await lockTodaysEntry(tx, principal, today.date);
  if (entry.state === 'submitted') throw alreadySubmitted(today, 'redrafted');
  await updateEntry(tx.db, entry.id, {
    state: 'draft',
    done,
    doing,
    tasks: '[]',
    submitted_at: null,
    updated_at: tx.clock.nowIso(),
  });
  await replaceBlockers(
    tx.db,
    entry.id,
    carried.map(({ text, task_key, project_id, since }) => ({ text, task_key, project_id, since })),
  );
  return reload(tx.db, principal, entry.id);
}

/** Skip: today is marked skipped (idempotent) and any draft text is dropped. A submitted day is refused. */
export async function skipMyDay(tx: Tx, principal: Principal): Promise<StandupEntryJson> {
  const today = await teamToday(tx, principal.organizationId);
  const entry = await lockTodaysEntry(tx, principal, today.date);
  if (entry.state === 'submitted') throw alreadySubmitted(today, 'skipped');
  if (entry.state === 'skipped') return reload(tx.db, principal, entry.id);
  await updateEntry(tx.db, entry.id, {
    state: 'skipped',
    done: '',
    doing: '',
    tasks: '[]',
    submitted_at: null,
    updated_at: tx.clock.nowIso(),
  });
  await replaceBlockers(tx.db, entry.id, []);
  return reload(tx.db, principal, entry.id);
}
