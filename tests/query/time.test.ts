import { describe, expect, it } from 'vitest';
import { resolveTime, startOfDate } from '../../src/modules/query/time.ts';

const at = (iso: string, timeZone: string) => ({ nowMs: Date.parse(iso), timeZone });
const day = (fn: 'today' | 'startOfWeek' | 'endOfWeek' | 'startOfMonth' | 'endOfMonth', iso: string, tz = 'UTC') =>
  resolveTime({ type: 'day', fn }, at(iso, tz));
const ago = (amount: number, unit: 'h' | 'd' | 'w', iso: string, tz = 'UTC') => {
  const time = resolveTime({ type: 'relative', amount, unit }, at(iso, tz));
  return 'instant' in time ? new Date(time.instant).toISOString() : time.date;
};

describe('the query language: times in a time zone', () => {
  it("today() is the zone's date: the day changes at local midnight", () => {
    expect(day('today', '2026-11-21T10:59:59.999Z', 'Pacific/Auckland')).toEqual({ date: '2026-11-21' });
    expect(day('today', '2026-11-21T11:00:00.000Z', 'Pacific/Auckland')).toEqual({ date: '2026-11-22' });
    expect(day('today', '2026-11-22T07:59:59.999Z', 'America/Los_Angeles')).toEqual({ date: '2026-11-21' });
    expect(day('today', '2026-11-22T08:00:00.000Z', 'America/Los_Angeles')).toEqual({ date: '2026-11-22' });
  });

  it('weeks run from Monday to Sunday', () => {
    expect(day('startOfWeek', '2026-11-16T00:00:00Z')).toEqual({ date: '2026-11-16' }); // a Monday
    expect(day('endOfWeek', '2026-11-16T00:00:00Z')).toEqual({ date: '2026-11-22' });
    expect(day('startOfWeek', '2026-11-22T23:59:59Z')).toEqual({ date: '2026-11-16' }); // a Sunday
    expect(day('startOfWeek', '2026-11-22T23:59:59Z', 'Asia/Kolkata')).toEqual({ date: '2026-11-23' });
    expect(day('endOfWeek', '2026-12-30T12:00:00Z')).toEqual({ date: '2027-01-03' }); // across a year
  });

  it('months end on their last day, leap years included', () => {
    expect(day('endOfMonth', '2028-02-10T12:00:00Z')).toEqual({ date: '2028-02-29' });
    expect(day('endOfMonth', '2026-02-10T12:00:00Z')).toEqual({ date: '2026-02-28' });
    expect(day('startOfMonth', '2026-12-31T23:30:00Z', 'Pacific/Auckland')).toEqual({ date: '2027-01-01' });
    expect(day('endOfMonth', '2026-04-30T23:30:00Z', 'Europe/Berlin')).toEqual({ date: '2026-05-31' });
  });

  it('-Nd and +Nw keep the wall-clock time across a DST change; -Nh counts hours', () => {
    // Berlin moves to summer time on 2026-03-29: a day back from 14:00 CEST is 14:00 CET, 23 hours earlier.
    expect(ago(-1, 'd', '2026-03-29T12:00:00Z', 'Europe/Berlin')).toBe('2026-03-28T13:00:00.000Z');
    expect(ago(-1, 'd', '2026-03-29T12:00:00Z')).toBe('2026-03-28T12:00:00.000Z');
    expect(ago(-24, 'h', '2026-03-29T12:00:00Z', 'Europe/Berlin')).toBe('2026-03-28T12:00:00.000Z');
    // And back to winter time on 2026-10-25: a week later is 25 hours more than 6 days 23 hours.
    expect(ago(1, 'w', '2026-10-20T10:00:00Z', 'Europe/Berlin')).toBe('2026-10-27T11:00:00.000Z');
    expect(ago(2, 'w', '2026-11-21T09:00:00Z')).toBe('2026-12-05T09:00:00.000Z');
  });

  it('a day starts at its first instant in the zone, on DST days too', () => {
    expect(new Date(startOfDate('2026-03-29', 'Europe/Berlin')).toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(new Date(startOfDate('2026-03-30', 'Europe/Berlin')).toISOString()).toBe('2026-03-29T22:00:00.000Z');
    // Santiago skips midnight when summer time starts (2026-09-06): the day starts at 01:00 local.
    expect(new Date(startOfDate('2026-09-06', 'America/Santiago')).toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });
});
