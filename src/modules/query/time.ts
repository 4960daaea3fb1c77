import { localDate, startOfLocalDay } from '../standups/team-day.ts';
import type { TimeValue } from './ast.ts';

/**
 * Times in a query, in the time zone the request names (UTC by default): a calendar date, or an
 * instant. Weeks start on Monday. `-7d` and `+2w` move the wall clock by calendar days, so the
 * same local time is kept across a DST change; `-3h` moves by hours.
 */
export type ResolvedTime = { date: string } | { instant: number };

export interface TimeContext {
  nowMs: number;
  timeZone: string;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** `date` moved by `days` calendar days. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

function dayFunction(fn: string, today: string): string {
  const weekday = (new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday 0
  switch (fn) {
    case 'today':
      return today;
    case 'startOfWeek':
      return addDays(today, -weekday);
    case 'endOfWeek':
      return addDays(today, 6 - weekday);
    case 'startOfMonth':
      return `${today.slice(0, 8)}01`;
    default: {
      const [year, month] = today.split('-').map(Number) as [number, number];
      return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
    }
  }
}

const wallClocks = new Map<string, Intl.DateTimeFormat>();

/** The wall-clock reading at `ms` in `timeZone`, as if it were UTC (epoch ms). */
function wallClock(timeZone: string, ms: number): number {
  let format = wallClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallClocks.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, Number(p.value)]));
  return Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) + (ms % 1000);
}

/** The instant whose wall clock in `timeZone` reads `wall` (in a DST gap, an hour later). */
function fromWallClock(timeZone: string, wall: number): number {
  let guess = wall - (wallClock(timeZone, wall) - wall);
  guess = wall - (wallClock(timeZone, guess) - guess);
  return guess;
}

export function resolveTime(value: TimeValue, context: TimeContext): ResolvedTime {
  const { nowMs, timeZone } = context;
  switch (value.type) {
    case 'date':
      return { date: value.date };
    case 'day':
      return { date: dayFunction(value.fn, localDate(timeZone, nowMs)) };
    case 'now':
      return { instant: nowMs };
    case 'relative': {
      if (value.unit === 'h') return { instant: nowMs + value.amount * HOUR };
      const days = value.unit === 'w' ? value.amount * 7 : value.amount;
      return { instant: fromWallClock(timeZone, wallClock(timeZone, nowMs) + days * DAY) };
    }
  }
}

/** The calendar date of a resolved time in `timeZone`. */
export function dateOf(time: ResolvedTime, timeZone: string): string {
  return 'date' in time ? time.date : localDate(timeZone, time.instant);
}

/** The first instant of `date` in `timeZone`. */
export function startOfDate(date: string, timeZone: string): number {
  return startOfLocalDay(timeZone, date);
}
