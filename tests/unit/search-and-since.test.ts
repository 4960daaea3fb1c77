import { describe, expect, it } from 'vitest';
import { parseSince } from '../../src/modules/changes/since.ts';
import { fts5Query, searchTerms, tsQuery } from '../../src/modules/search/search-query.ts';

describe('search query building', () => {
  it('keeps only words, so engine syntax is inert', () => {
    expect(searchTerms('"login" -bug* NEAR(a b) (unbalanced OR ^x')).toEqual([
      'login',
      'bug',
      'near',
      'a',
      'b',
      'unbalanced',
      'or',
      'x',
    ]);
    expect(searchTerms('***()"')).toEqual([]);
    expect(searchTerms('Ünïcode 日本語 café')).toEqual(['ünïcode', '日本語', 'café']);
  });

  it('the last term is a prefix', () => {
    expect(fts5Query(['fix', 'log'])).toBe('"fix" "log"*');
    expect(tsQuery(['fix', 'log'])).toBe('fix & log:*');
    expect(tsQuery(['fix', 'log'], 'A')).toBe('fix:A & log:*A');
  });

  it('bounds the number and length of terms', () => {
    expect(searchTerms('a '.repeat(100))).toHaveLength(16);
    expect(searchTerms('x'.repeat(500))[0]).toHaveLength(64);
  });
});

describe('changes feed `since` parsing: unparseable values are ignored', () => {
  it('accepts Z and numeric offsets, normalising to UTC with microseconds', () => {
    expect(parseSince('2026-11-21T10:15:30Z')).toBe('2026-11-21T10:15:30.000000Z');
    expect(parseSince('2026-11-21T10:15:30.123456Z')).toBe('2026-11-21T10:15:30.123456Z');
    expect(parseSince('2026-11-21T10:15:30.1+00:00')).toBe('2026-11-21T10:15:30.100000Z');
    expect(parseSince('2026-11-21T12:15:30+02:00')).toBe('2026-11-21T10:15:30.000000Z');
    expect(parseSince('2026-11-21T00:15:30-0130')).toBe('2026-11-21T01:45:30.000000Z');
  });

  it('an unescaped + decodes to a space and does not parse: null, so the filter is skipped', () => {
    expect(parseSince('2026-11-21T10:15:30 00:00')).toBeNull();
  });

  it('garbage and impossible dates do not parse', () => {
    for (const bad of ['', 'yesterday', '2026-02-31T00:00:00Z', '2026-11-21', '2026-11-21T25:00:00Z', '1e3']) {
      expect(parseSince(bad)).toBeNull();
    }
  });
});
