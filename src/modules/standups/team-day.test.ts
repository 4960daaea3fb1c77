import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalTimeZone, localDate, localTime, previousDate, startOfLocalDay, weekdayOf } from './team-day.ts';

describe('team day (timezone arithmetic)', () => {
  it('canonicalizes IANA names and refuses unknown ones', () => {
    expect(canonicalTimeZone('america/new_york')).toBe('America/New_York');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
    expect(canonicalTimeZone('')).toBeNull();
  });

  it('puts 04:30Z and 05:30Z on different New York days in winter', () => {
    expect(localDate('America/New_York', Date.parse('2026-11-21T04:30:00Z'))).toBe('2026-11-20');
    expect(localDate('America/New_York', Date.parse('2026-11-21T05:30:00Z'))).toBe('2026-11-21');
    expect(startOfLocalDay('America/New_York', '2026-11-21')).toBe(Date.parse('2026-11-21T05:00:00Z'));
    expect(startOfLocalDay('America/New_York', '2026-07-01')).toBe(Date.parse('2026-07-01T04:00:00Z'));
  });

  it('finds the start of a day whose local midnight DST skips (Santiago, 2026-09-06 starts at 01:00)', () => {
    const start = startOfLocalDay('America/Santiago', '2026-09-06');
    expect(localDate('America/Santiago', start)).toBe('2026-09-06');
    expect(localDate('America/Santiago', start - 1)).toBe('2026-09-05');
  });

  it('handles the extreme offsets', () => {
    expect(startOfLocalDay('Pacific/Kiritimati', '2026-01-01')).toBe(Date.parse('2025-12-31T10:00:00Z'));
    expect(startOfLocalDay('Etc/GMT+12', '2026-01-01')).toBe(Date.parse('2026-01-01T12:00:00Z'));
  });

  it('the start of a day is the exact boundary, for any instant and zone', () => {
    const zones = [
      'UTC',
      'America/New_York',
      'Europe/Berlin',
      'Asia/Kolkata',
      'Australia/Lord_Howe',
      'America/Santiago',
    ];
    fc.assert(
      fc.property(
        fc.constantFrom(...zones),
        fc.integer({ min: Date.parse('2020-01-01'), max: Date.parse('2035-01-01') }),
        (zone, ms) => {
          const day = localDate(zone, ms);
          const start = startOfLocalDay(zone, day);
          expect(start).toBeLessThanOrEqual(ms);
          expect(localDate(zone, start)).toBe(day);
          expect(localDate(zone, start - 1)).toBe(previousDate(day));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('previousDate crosses months and leap days', () => {
    expect(previousDate('2028-03-01')).toBe('2028-02-29');
    expect(previousDate('2026-01-01')).toBe('2025-12-31');
  });

  it('localTime reads the wall clock (midnight is 00:00) and weekdayOf names the day', () => {
    expect(localTime('America/New_York', Date.parse('2026-11-21T05:00:00Z'))).toBe('00:00');
    expect(localTime('Asia/Kolkata', Date.parse('2026-11-21T04:00:00Z'))).toBe('09:30');
    expect(localTime('UTC', Date.parse('2026-11-21T23:59:59Z'))).toBe('23:59');
    expect(weekdayOf('2026-11-21')).toBe('sat');
    expect(weekdayOf('2026-11-23')).toBe('mon');
  });
});
