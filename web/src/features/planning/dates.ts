/**
 * Calendar days as `YYYY-MM-DD` strings, counted in UTC so a daylight saving change never
 * makes a day 23 or 25 hours long. Weeks start on Monday, as in the query language.
 */

export const DAY_MS = 86_400_000;

/** Days since 1970-01-01 of a `YYYY-MM-DD` date. */
export const dayNumber = (iso: string): number =>
  Date.UTC(+iso.slice(0, 4), +iso.slice(5, 7) - 1, +iso.slice(8, 10)) / DAY_MS;

export const fromDayNumber = (n: number): string => new Date(n * DAY_MS).toISOString().slice(0, 10);

export const addDays = (iso: string, days: number): string => fromDayNumber(dayNumber(iso) + days);

export const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);

/** Today where the person is. */
export function today(): string {
  const now = new Date();
  return fromDayNumber(Date.UTC(now.getFullYear(), now.getMonth(), now.getDate()) / DAY_MS);
}

/** 0 for Monday … 6 for Sunday. */
export const weekday = (iso: string): number => (new Date(dayNumber(iso) * DAY_MS).getUTCDay() + 6) % 7;

export const startOfWeek = (iso: string): string => addDays(iso, -weekday(iso));

export const startOfMonth = (iso: string): string => `${iso.slice(0, 7)}-01`;

export function addMonths(iso: string, months: number): string {
  const d = new Date(dayNumber(startOfMonth(iso)) * DAY_MS);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.toISOString().slice(0, 10);
}

const format = (iso: string, options: Intl.DateTimeFormatOptions) =>
  new Date(dayNumber(iso) * DAY_MS).toLocaleDateString(undefined, { timeZone: 'UTC', ...options });

export const monthTitle = (iso: string) => format(iso, { month: 'long', year: 'numeric' });
export const dayTitle = (iso: string) =>
  format(iso, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
export const shortDay = (iso: string) => format(iso, { month: 'short', day: 'numeric' });
export const weekdayName = (iso: string, width: 'short' | 'long' = 'short') => format(iso, { weekday: width });

/** The person's IANA time zone, sent with queries so `today()` and dates mean their day. */
export const timeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;
