import { isoFromMs } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import type { Weekday } from '../../db/schema.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import { invalid } from '../../http/errors.ts';
import { authorize, WORKSPACE } from '../../policy/index.ts';
import type { Principal } from '../../identity/principal.ts';
import { type SettingsPatch, type StandupSettingsJson, WEEKDAYS } from './standups.schemas.ts';
import * as repo from './settings.repository.ts';
import { canonicalTimeZone, localDate, startOfLocalDay } from './team-day.ts';
import { changedFields, hasChanges, recordAudit } from '../audit/record-audit.ts';

/** What an organization gets until an owner or admin changes it. */
export const DEFAULT_SETTINGS: StandupSettingsJson = {
  timezone: 'UTC',
  days: ['mon', 'tue', 'wed', 'thu', 'fri'],
  reminder_time: '09:30',
  questions: [
    'What did you do since your last check-in?',
    'What are you working on today?',
    'Is anything blocking you?',
  ],
};

export async function readSettings(db: Executor, organizationId: number): Promise<StandupSettingsJson> {
  const row = await repo.findSettings(db, organizationId);
  if (!row) return DEFAULT_SETTINGS;
  return {
    timezone: row.timezone,
    days: JSON.parse(row.days) as Weekday[],
    reminder_time: row.reminder_time,
    questions: JSON.parse(row.questions) as string[],
  };
}

export async function updateSettings(tx: Tx, principal: Principal, patch: SettingsPatch): Promise<StandupSettingsJson> {
  authorize(principal, 'workspace.configure', WORKSPACE);
  const errors: Record<string, string> = {};
  let timezone: string | undefined;
  if (patch.timezone !== undefined) {
    timezone = canonicalTimeZone(patch.timezone) ?? undefined;
    if (!timezone)
      errors.timezone = `"${patch.timezone}" is not an IANA timezone name (e.g. Europe/Berlin, America/New_York, UTC)`;
  }
  if (patch.questions?.some((q) => q.trim() === '')) errors.questions = 'questions cannot be blank';
  if (Object.keys(errors).length) throw invalid(errors);

  // Concurrent PATCHes of different fields must not undo each other: make sure the row exists,
  // then hold it while merging.
  await repo.ensureSettings(tx.db, principal.organizationId, stored(DEFAULT_SETTINGS), tx.clock.nowIso());
  await repo.lockSettings(tx.db, tx.dialect, principal.organizationId);
  const current = await readSettings(tx.db, principal.organizationId);
  const next: StandupSettingsJson = {
    timezone: timezone ?? current.timezone,
    days: patch.days ? WEEKDAYS.filter((day) => patch.days!.includes(day)) : current.days,
    reminder_time: patch.reminder_time ?? current.reminder_time,
    questions: patch.questions ?? current.questions,
  };
  await repo.updateSettings(tx.db, principal.organizationId, stored(next), principal.userId, tx.clock.nowIso());
  const changes = changedFields(current, next);
  if (hasChanges(changes))
    await recordAudit(tx, {
      organizationId: principal.organizationId,
      actor: principal,
      action: 'settings.updated',
      target: { type: 'settings', id: null, label: 'Standups' },
      ...changes,
    });
  return next;
}

function stored(settings: StandupSettingsJson): repo.StoredSettings {
  return {
    timezone: settings.timezone,
    days: JSON.stringify(settings.days),
    reminder_time: settings.reminder_time,
    questions: JSON.stringify(settings.questions),
  };
}

/** The team's current day: its date, and its first instant as a stored timestamp (for "changed today"). */
export interface TeamDay {
  date: string;
  timezone: string;
  startIso: string;
}

export async function teamToday(ctx: AppContext, organizationId: number): Promise<TeamDay> {
  const { timezone } = await readSettings(ctx.db, organizationId);
  const date = localDate(timezone, ctx.clock.nowMs());
  return { date, timezone, startIso: isoFromMs(startOfLocalDay(timezone, date)) };
}
