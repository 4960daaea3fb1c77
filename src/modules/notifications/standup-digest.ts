/**
 * The daily digest is the standup (docs/api/notifications.md, "The daily digest"): at the
 * team's reminder time (its timezone, its standup days), everyone active who has neither
 * submitted nor skipped today gets one `standup_reminder` notification holding their tasks in
 * flight, what changed on the tasks they follow since their previous digest, the blockers that
 * name them, and the link that opens today's check-in drafted from their activity.
 *
 * Each digest is claimed by a (person, team day) row in the transaction that notifies, so
 * several workers send it once; a person who had a digest for a later day (the timezone moved
 * west) gets none for an earlier one.
 */
import { isoFromMs } from '../../clock.ts';
import type { AppContext } from '../../context.ts';
import type { Executor } from '../../db/database.ts';
import type { Weekday } from '../../db/schema.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { DEFAULT_SETTINGS } from '../standups/settings.service.ts';
import { localDate, localTime, previousDate, startOfLocalDay, weekdayOf } from '../standups/team-day.ts';
import { fieldLabels } from './field-labels.ts';
import { mentionedHandles } from './mentions.ts';
import { notifyAccounts } from './notify.service.ts';
import * as repo from './standup-digest.repository.ts';

/** Where the digest's link leads: the web app drafts today's check-in from the person's activity. */
export const CHECK_IN_PATH = '/standups?tab=me&prefill=1';

const MAX_TASKS = 20;
const MAX_ACTIVITY_ROWS = 500;
/** How old a teammate's latest entry may be and still declare their blockers. */
const BLOCKER_DAYS = 7;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Sends the digests due now, at most `limit`; returns how many it claimed. */
export async function sendStandupDigests(ctx: AppContext, limit = 200): Promise<number> {
  const nowMs = ctx.clock.nowMs();
  let claimed = 0;
  for (const org of await repo.organizationSchedules(ctx.db)) {
    if (claimed >= limit) break;
    const timezone = org.timezone ?? DEFAULT_SETTINGS.timezone;
    const days = org.days ? (JSON.parse(org.days) as Weekday[]) : DEFAULT_SETTINGS.days;
    const reminder = org.reminder_time ?? DEFAULT_SETTINGS.reminder_time;
    const date = localDate(timezone, nowMs);
    if (!days.includes(weekdayOf(date)) || localTime(timezone, nowMs) < reminder) continue;
    for (const person of await repo.digestRecipients(ctx.db, org.id, date, limit - claimed)) {
      const sent = await inTransaction(ctx, async (tx) => {
        if (!(await repo.claimDigest(tx.db, person.id, date, tx.clock.nowIso()))) return false;
        const since =
          (await repo.previousDigestAt(tx.db, person.id, date)) ??
          isoFromMs(startOfLocalDay(timezone, previousDate(date)));
        const digest = await composeDigest(tx.db, { ...person, organizationId: org.id }, date, since);
        await notifyAccounts(tx, tx.db, {
          organization: { id: org.id, slug: org.slug, name: org.name },
          userIds: [person.id],
          reason: 'standup_reminder',
          text: digest.text,
          body: digest.body,
          data: { date, link: CHECK_IN_PATH },
        });
        return true;
      });
      if (sent) claimed += 1;
    }
  }
  return claimed;
}

async function composeDigest(
  db: Executor,
  person: { id: number; handle: string; organizationId: number },
  date: string,
  since: string,
): Promise<{ text: string; body: string }> {
  const inFlight = await repo.tasksInFlight(db, person.id, MAX_TASKS);

  const changed = new Map<number, { key: string; title: string; what: Set<string>; who: Set<string> }>();
  const activity = await repo.followedActivity(db, person.id, since, MAX_ACTIVITY_ROWS);
  const labels = await fieldLabels(
    db,
    activity.flatMap((row) => (row.field ? [row.field] : [])),
  );
  for (const row of activity) {
    const task = changed.get(row.task_id) ?? { key: row.key, title: row.title, what: new Set(), who: new Set() };
    task.what.add(row.action === 'updated' && row.field ? labels.name(row.field) : row.action.replaceAll('_', ' '));
    task.who.add(row.actor_name ?? 'Scheduler');
    changed.set(row.task_id, task);
  }

  const member = await repo.memberProjectIds(db, person.id);
  const blockers = (
    await repo.currentBlockers(
      db,
      person.organizationId,
      isoFromMs(Date.parse(`${date}T00:00:00Z`) - BLOCKER_DAYS * 86_400_000).slice(0, 10),
      date,
    )
  ).filter(
    (b) =>
      b.user_id !== person.id &&
      (b.project_id === null || member.has(b.project_id)) &&
      (b.assignee_id === person.id || mentionedHandles(b.text).has(person.handle)),
  );

  const text = `Standup for ${date}: ${plural(inFlight.length, 'task')} in flight, ${plural(changed.size, 'followed task')} changed, ${plural(blockers.length, 'blocker')} naming you`;
  const section = (title: string, lines: string[]) => [title, ...(lines.length ? lines : ['- none']), ''];
  const body = [
    ...section(
      'Your tasks in flight:',
      inFlight.map((t) => `- ${t.key} “${t.title}” (${t.status})`),
    ),
    ...section(
      'Changed on tasks you follow since your last digest:',
      [...changed.values()].map((t) => `- ${t.key} “${t.title}”: ${[...t.what].join(', ')} (${[...t.who].join(', ')})`),
    ),
    ...section(
      'Blockers that name you:',
      blockers.map((b) => `- ${b.name}${b.task_key ? ` on ${b.task_key}` : ''}: ${b.text}`),
    ),
  ]
    .join('\n')
    .trimEnd();
  return { text, body };
}
