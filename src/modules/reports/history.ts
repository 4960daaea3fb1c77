import type { StatusCategory } from '../../db/schema.ts';

/**
 * A task's past, replayed backwards from its values now: the value at a time is the `from` of
 * the first recorded change after it, or the current value when nothing changed since. So
 * history from before a field existed reads as the value it had (no estimate before one was
 * set), and nothing depends on creation rows recording initial values.
 */

/** Timestamps as stored (ISO 8601 UTC, microseconds), which compare as text. */
export type Stamp = string;

/** A field's values over time: `initial` until the first change, then each change's value from its time on. */
export interface Timeline<T> {
  initial: T;
  changes: Array<{ at: Stamp; value: T }>;
}

export function valueAt<T>(timeline: Timeline<T>, at: Stamp): T {
  let value = timeline.initial;
  for (const change of timeline.changes) {
    if (change.at > at) break;
    value = change.value;
  }
  return value;
}

/** Builds a timeline from the value now and the recorded changes (oldest first); `decode` reads a change's `from` at its time. */
export function timelineOf<T>(
  current: T,
  changes: Array<{ at: Stamp; from: string | null }>,
  decode: (from: unknown, at: Stamp) => T,
): Timeline<T> {
  if (changes.length === 0) return { initial: current, changes: [] };
  const values = changes.map((c) => decode(c.from === null ? null : JSON.parse(c.from), c.at));
  return {
    initial: values[0]!,
    changes: changes.map((c, i) => ({ at: c.at, value: i + 1 < changes.length ? values[i + 1]! : current })),
  };
}

/** A status as a report shows it: by its name now, or by the old name when no status of the project had it then. */
export interface ReportStatus {
  /** `s<id>`, or `n<name>` for a name no status had (a status deleted since, or renamed before renames were kept). */
  id: string;
  name: string;
  category: StatusCategory | null;
}

/**
 * Activity records a status by the name it had at the time. A name is resolved to the status
 * that had it then, through the renames kept since migration 0029; a report then shows each
 * status under its name now, so a rename mid-period does not split its series.
 */
export class StatusNames {
  private readonly byId = new Map<number, ReportStatus>();
  private readonly unknown = new Map<string, ReportStatus>();

  constructor(
    private readonly statuses: Array<{ id: number; name: string; category: StatusCategory }>,
    private readonly renames: Array<{ status_id: number; from_name: string; renamed_at: string }>,
  ) {
    for (const s of statuses) this.byId.set(s.id, { id: `s${s.id}`, name: s.name, category: s.category });
  }

  byStatusId(id: number): ReportStatus {
    return this.byId.get(id)!;
  }

  /** The name a status had at `at`: the old name of its first rename after then, else its name now. */
  private nameAt(status: { id: number; name: string }, at: Stamp): string {
    const later = this.renames.find((r) => r.status_id === status.id && r.renamed_at > at);
    return later ? later.from_name : status.name;
  }

  resolve(name: string, at: Stamp): ReportStatus {
    const status = this.statuses.find((s) => this.nameAt(s, at) === name);
    if (status) return this.byStatusId(status.id);
    let known = this.unknown.get(name);
    if (!known) {
      known = { id: `n${name}`, name, category: null };
      this.unknown.set(name, known);
    }
    return known;
  }

  /** Every status a report may show: the project's in board order, then names no status has. */
  all(): ReportStatus[] {
    return [...this.byId.values(), ...this.unknown.values()];
  }
}

/** The last instant of a UTC day, in stored form. */
export const endOfDay = (date: string): Stamp => `${date}T23:59:59.999999Z`;

/** `date` plus `days` (UTC calendar arithmetic). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Every date from `from` to `to`, inclusive. */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) dates.push(d);
  return dates;
}

/** An instant as stored, with every microsecond of its millisecond included (for "at or before"). */
export const stampOf = (ms: number): Stamp => new Date(ms).toISOString().replace(/Z$/, '999Z');

export const hoursBetween = (from: Stamp, to: Stamp): number => (Date.parse(to) - Date.parse(from)) / 3_600_000;

/** Rounds away float noise from sums of estimates and durations. */
export const round = (n: number): number => Math.round(n * 10_000) / 10_000;

/** Nearest-rank percentile of sorted values; null for none. */
export function percentile(sorted: number[], p: number): number | null {
  if (sorted.length === 0) return null;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
