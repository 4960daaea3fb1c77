/**
 * Parses the changes feed's `since` (docs/api/changes-feed.md) into the stored
 * timestamp format (UTC, six fractional digits, `Z`) so it compares correctly as text. Returns
 * null when it does not parse; the caller then skips the filter (docs/domain/tasks.md).
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:?\d{2})$/;

export function parseSince(value: string | undefined): string | null {
  if (value === undefined) return null;
  const match = ISO.exec(value.trim());
  if (!match) return null;
  const [, year, month, day, hour, minute, second, fraction = '', zone] = match;
  const wholeMs = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second));
  const check = new Date(wholeMs);
  // Date.UTC rolls 2026-02-31 over into March; refuse such dates instead of guessing.
  if (check.getUTCDate() !== Number(day) || check.getUTCHours() !== Number(hour) || Number(second) > 59) return null;

  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone!.startsWith('-') ? -1 : 1;
    const digits = zone!.slice(1).replace(':', '');
    offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2)));
  }
  const utcMs = wholeMs - offsetMinutes * 60_000;
  if (!Number.isFinite(utcMs) || utcMs < 0) return null;
  const micros = fraction.padEnd(6, '0').slice(0, 6);
  return `${new Date(utcMs).toISOString().slice(0, 19)}.${micros}Z`;
}
