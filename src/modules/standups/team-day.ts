/**
 * Calendar days in a team's timezone, from the platform's ICU data (Intl), so DST rules
 * and IANA aliases are the same ones every other Node.js tool uses.
 */
function formatter(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
}

function dateIn(format: Intl.DateTimeFormat, ms: number): string {
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}

/** The canonical IANA name (`america/new_york` -> `America/New_York`), or null when Intl does not know it. */
export function canonicalTimeZone(name: string): string | null {
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The calendar date (YYYY-MM-DD) at instant `ms` in `timeZone`. */
export function localDate(timeZone: string, ms: number): string {
  return dateIn(formatter(timeZone), ms);
}

const HOUR = 3_600_000;

/**
 * The first instant (epoch ms) whose local date in `timeZone` is `date`. UTC offsets lie
 * within -12 h and +14 h, so the boundary is inside a 28-hour window around UTC midnight;
 * a binary search finds it exactly, including on days where DST skips local midnight.
 */
export function startOfLocalDay(timeZone: string, date: string): number {
  const format = formatter(timeZone);
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  let before = utcMidnight - 15 * HOUR; // local date is the previous day here, whatever the offset
  let atOrAfter = utcMidnight + 13 * HOUR; // and `date` (or later) here
  while (atOrAfter - before > 1) {
    const middle = Math.floor((before + atOrAfter) / 2);
    if (dateIn(format, middle) >= date) atOrAfter = middle;
    else before = middle;
  }
  return atOrAfter;
}

/** The calendar day before `date` (YYYY-MM-DD). */
export function previousDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) - 24 * HOUR).toISOString().slice(0, 10);
}

/** The wall-clock time (HH:MM, 00:00 to 23:59) at instant `ms` in `timeZone`. */
export function localTime(timeZone: string, ms: number): string {
  const format = new Intl.DateTimeFormat('en-US', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const parts = Object.fromEntries(format.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  return `${parts.hour}:${parts.minute}`;
}

const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;

/** The day of the week of a calendar date (YYYY-MM-DD). */
export function weekdayOf(date: string): (typeof WEEKDAYS)[number] {
  return WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()]!;
}
