import { describe, expect, it } from 'vitest';
import { FIELDS as SERVER_FIELDS, FUNCTION_NAMES } from '../../src/modules/query/fields.ts';
import { parseQuery } from '../../src/modules/query/syntax.ts';
import { complete, FIELDS, quote } from '../../web/src/features/views/completion.ts';

const labels = (text: string, known = {}) => complete(text, text.length, known).suggestions.map((s) => s.label);

// The app's query bar completes the language the server parses.
describe('query bar completion', () => {
  it('knows every field of the language, with its kind', () => {
    expect(Object.keys(FIELDS).sort()).toEqual(Object.keys(SERVER_FIELDS).sort());
    for (const [name, def] of Object.entries(SERVER_FIELDS)) expect(FIELDS[name], name).toBe(def.kind);
  });

  it('offers fields, then operators, then values and functions, then connectives', () => {
    expect(labels('stat')).toEqual(['status', 'status_category']);
    expect(labels('status ')).toEqual([
      '=',
      '!=',
      'IN (',
      'NOT IN (',
      'IS EMPTY',
      'IS NOT EMPTY',
      '<',
      '<=',
      '>',
      '>=',
    ]);
    expect(labels('status = ', { status: ['To Do', 'In Progress'] })).toEqual(['To Do', 'In Progress']);
    expect(labels('status = "In', { status: ['To Do', 'In Progress'] })).toEqual(['In Progress']);
    expect(labels('assignee = ', { assignee: ['ada@example.test'] })).toEqual(['me()', 'ada@example.test']);
    expect(labels('label NOT IN (bug, ', { label: ['bug', 'ui'] })).toEqual(['bug', 'ui']);
    expect(labels('blocked = ')).toEqual(['true', 'false']);
    expect(labels('status_category != ')).toEqual(['todo', 'in_progress', 'done']);
    expect(labels('due <= end')).toEqual(['endOfWeek()', 'endOfMonth()']);
    expect(labels('sprint = ')).toEqual(['openSprint()']);
    expect(labels('label = bug ')).toEqual(['AND', 'OR', ')', 'ORDER BY']);
    expect(labels('label = bug AND (NOT pri')).toEqual(['priority']);
    expect(labels('label = bug ORDER ')).toEqual(['BY']);
    expect(labels('label = bug ORDER BY pri')).toEqual(['priority']);
    expect(labels('label = bug ORDER BY due ')).toEqual(['ASC', 'DESC', ',']);
    expect(labels('label = bug ORDER BY due DESC, ')).toContain('created');
    expect(labels('estimate ')).toEqual(['<', '<=', '>', '>=', '=', '!=', 'IS EMPTY', 'IS NOT EMPTY']);
  });

  it('offers only functions the language has', () => {
    const offered = new Set(
      ['assignee = ', 'due < ', 'sprint = ', 'updated > '].flatMap((t) =>
        complete(t, t.length, {})
          .suggestions.filter((s) => s.kind === 'function' && s.label.endsWith('()'))
          .map((s) => s.label.slice(0, -2)),
      ),
    );
    for (const name of offered) expect(FUNCTION_NAMES as readonly string[]).toContain(name);
  });

  it('quotes a value that is not a bare word, so what it inserts parses', () => {
    expect(quote('bug')).toBe('bug');
    expect(quote('In Progress')).toBe('"In Progress"');
    expect(quote('ada@example.test')).toBe('"ada@example.test"');
    expect(quote('say "hi" \\ there')).toBe('"say \\"hi\\" \\\\ there"');
    for (const value of ['In Progress', 'ada@example.test', 'say "hi" \\ there'])
      expect(() => parseQuery(`label = ${quote(value)}`)).not.toThrow();
  });
});
