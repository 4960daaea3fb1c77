import { describe, expect, it } from 'vitest';
import { checkQuery } from '../../src/modules/query/check.ts';
import { QueryError } from '../../src/modules/query/query-error.ts';
import { parseQuery } from '../../src/modules/query/syntax.ts';

/** The error a query is refused with: message, position and what was expected. */
function refusal(text: string): { message: string; position: number; expected: string[] } {
  try {
    checkQuery(text);
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
    expect(error.code).toBe('INVALID_QUERY');
    return { message: error.message, position: error.position, expected: error.expected };
  }
  throw new Error(`accepted: ${text}`);
}

/** The tree's shape in short: fields for clauses, and/or/not around them. */
function shape(text: string): unknown {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test's walk over the tree
  const walk = (e: any): unknown =>
    e.kind === 'clause' ? e.field.name : e.kind === 'not' ? ['not', walk(e.expr)] : [e.kind, ...e.items.map(walk)];
  return walk(parseQuery(text).where);
}

describe('the query language: syntax', () => {
  it('reads the pinned example', () => {
    const query = checkQuery(
      'status_category != done AND assignee = me() AND (label = bug OR priority IN (High, Urgent)) AND due <= endOfWeek() AND updated < -7d AND text ~ "login timeout" ORDER BY priority DESC, due ASC',
    );
    expect(query.orderBy).toEqual([
      { field: 'priority', direction: 'desc' },
      { field: 'due', direction: 'asc' },
    ]);
    expect(query.where).toEqual({
      kind: 'and',
      items: [
        { kind: 'not', expr: { kind: 'category', categories: ['done'] } },
        { kind: 'reference', reference: 'assignee', values: [{ type: 'me' }] },
        {
          kind: 'or',
          items: [
            { kind: 'reference', reference: 'label', values: [{ type: 'name', text: 'bug' }] },
            {
              kind: 'reference',
              reference: 'priority',
              values: [
                { type: 'name', text: 'High' },
                { type: 'name', text: 'Urgent' },
              ],
            },
          ],
        },
        { kind: 'date', column: 'due_date', comparison: '<=', value: { type: 'day', fn: 'endOfWeek' } },
        { kind: 'instant', column: 'updated_at', comparison: '<', value: { type: 'relative', amount: -7, unit: 'd' } },
        { kind: 'match', scope: 'all', words: ['login', 'timeout'] },
      ],
    });
  });

  it('binds NOT tighter than AND, and AND tighter than OR; parentheses group', () => {
    expect(shape('a = 1 OR b = 2 AND c = 3')).toEqual(['or', 'a', ['and', 'b', 'c']]);
    expect(shape('a = 1 AND b = 2 OR c = 3')).toEqual(['or', ['and', 'a', 'b'], 'c']);
    expect(shape('NOT a = 1 AND b = 2')).toEqual(['and', ['not', 'a'], 'b']);
    expect(shape('NOT a = 1 OR NOT NOT b = 2')).toEqual(['or', ['not', 'a'], ['not', ['not', 'b']]]);
    expect(shape('NOT (a = 1 OR b = 2) AND c = 3')).toEqual(['and', ['not', ['or', 'a', 'b']], 'c']);
    expect(shape('(a = 1 OR b = 2) AND c = 3')).toEqual(['and', ['or', 'a', 'b'], 'c']);
  });

  it('reads keywords in any case, field names too', () => {
    expect(checkQuery('Status = Done and NOT label in (a) Or due IS not EMPTY order BY Created desc')).toMatchObject({
      orderBy: [{ field: 'created', direction: 'desc' }],
    });
  });

  it('reads bare words, quoted strings with escapes, numbers, dates, times from now and functions', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- reading parts of the tree
    const where = (text: string) => (checkQuery(text).where as any) ?? null;
    expect(where('status = "In \\"Review\\" \\\\ now"').values).toEqual([{ type: 'name', text: 'In "Review" \\ now' }]);
    expect(where('assignee = alice@x.example').values).toEqual([{ type: 'name', text: 'alice@x.example' }]);
    expect(where('parent = PROJ-12').values).toEqual([{ type: 'name', text: 'PROJ-12' }]);
    expect(where('due = 2026-02-28').value).toEqual({ type: 'date', date: '2026-02-28' });
    expect(where('due < +2w').value).toEqual({ type: 'relative', amount: 2, unit: 'w' });
    expect(where('updated > -3h').value).toEqual({ type: 'relative', amount: -3, unit: 'h' });
    expect(where('due < 5d').value).toEqual({ type: 'relative', amount: 5, unit: 'd' });
    expect(where('created < now()').value).toEqual({ type: 'now' });
    expect(where('sprint = openSprint()').values).toEqual([{ type: 'openSprint' }]);
    expect(where('blocked = TRUE')).toEqual({ kind: 'blocked', value: true });
    expect(where('cf["Story points"] >= 3')).toMatchObject({ kind: 'custom', name: 'Story points', operator: '>=' });
    expect(checkQuery('').where).toBeNull();
    expect(checkQuery('ORDER BY key').where).toBeNull();
  });

  it('writes the negative operators as NOT of the positive ones', () => {
    expect(checkQuery('label != bug').where).toEqual({
      kind: 'not',
      expr: { kind: 'reference', reference: 'label', values: [{ type: 'name', text: 'bug' }] },
    });
    expect(checkQuery('title !~ crash').where).toEqual({
      kind: 'not',
      expr: { kind: 'match', scope: 'title', words: ['crash'] },
    });
    expect(checkQuery('assignee IS NOT EMPTY').where).toEqual({
      kind: 'not',
      expr: { kind: 'empty', field: 'assignee' },
    });
    expect(checkQuery('due != today()').where).toMatchObject({ kind: 'not', expr: { kind: 'date', comparison: '=' } });
  });
});

describe('the query language: errors point at the problem', () => {
  it('an unknown field, with a suggestion', () => {
    expect(refusal('stauts = done')).toMatchObject({
      message: "unknown field 'stauts' at 0; did you mean 'status'?",
      position: 0,
    });
    expect(refusal('stauts = done').expected).toContain('status');
    expect(refusal('label = x AND asignee = me()')).toMatchObject({
      position: 14,
      message: expect.stringContaining("did you mean 'assignee'?"),
    });
    expect(refusal('zzz = 1').message).toBe("unknown field 'zzz' at 0");
  });

  it('an unterminated string at its opening quote', () => {
    expect(refusal('title ~ "login timeout')).toMatchObject({ position: 8, message: 'unterminated string at 8' });
    expect(refusal('status = done AND label = "a\\"')).toMatchObject({ position: 26 });
  });

  it('what is missing, and what would have been valid', () => {
    expect(refusal('status')).toMatchObject({ position: 6, expected: ['an operator'] });
    expect(refusal('status = ')).toMatchObject({ position: 9, expected: ['a value'] });
    expect(refusal('status IN ')).toMatchObject({ position: 10, expected: ['"("'] });
    expect(refusal('status IN (a,')).toMatchObject({ position: 13, expected: ['a value'] });
    expect(refusal('(status = done')).toMatchObject({ position: 14, expected: ['AND', 'OR', '")"'] });
    expect(refusal('status = done label = bug')).toMatchObject({
      position: 14,
      expected: ['AND', 'OR', 'ORDER BY', 'end of query'],
    });
    expect(refusal('status = done ADN label = bug')).toMatchObject({
      position: 14,
      message: expect.stringMatching(/at 14, found 'ADN label = bug'; did you mean 'AND'\?$/),
    });
    expect(refusal('status = done AND')).toMatchObject({ position: 17, expected: ['NOT', '"("', 'a field'] });
    expect(refusal('ORDER BY')).toMatchObject({ position: 8, expected: ['a field'] });
  });

  it('an operator the field does not take, at the operator', () => {
    expect(refusal('label < bug')).toMatchObject({
      position: 6,
      message: "the operator < cannot be used with 'label' at 6",
      expected: ['=', '!=', 'IN', 'NOT IN', 'IS EMPTY', 'IS NOT EMPTY'],
    });
    expect(refusal('text = login')).toMatchObject({ position: 5, expected: ['~', '!~'] });
    expect(refusal('created IS EMPTY')).toMatchObject({ position: 8 });
    expect(refusal('status ~ done').expected).toEqual(['=', '!=', 'IN', 'NOT IN', '<', '<=', '>', '>=']);
  });

  it('values and functions of the wrong kind', () => {
    expect(refusal('due < endOfWek()')).toMatchObject({
      position: 6,
      message: "unknown function 'endOfWek()' at 6; did you mean 'endOfWeek()'?",
    });
    expect(refusal('assignee = today()')).toMatchObject({
      position: 11,
      message: "the function today() cannot be used with 'assignee' at 11",
      expected: ['me()'],
    });
    expect(refusal('due < 2026-02-30')).toMatchObject({ position: 6 });
    expect(refusal('due < soon').expected).toContain('endOfMonth()');
    expect(refusal('status_category = Dnoe')).toMatchObject({
      position: 18,
      message: "unknown status category 'dnoe' at 18; did you mean 'done'?",
      expected: ['todo', 'in_progress', 'done'],
    });
    expect(refusal('blocked = yes')).toMatchObject({ position: 10, expected: ['true', 'false'] });
    expect(refusal('text ~ "!!!"')).toMatchObject({ position: 7, expected: ['words'] });
    expect(refusal('label = me()').expected).toEqual(['a value']);
  });

  it('ORDER BY fields that cannot be ordered by', () => {
    expect(refusal('ORDER BY label')).toMatchObject({ position: 9, message: "cannot order by 'label' at 9" });
    expect(refusal('status = x ORDER BY priorty DESC')).toMatchObject({
      position: 20,
      message: "unknown field 'priorty' at 20; did you mean 'priority'?",
    });
  });

  it('queries too long, too deep or too wide', () => {
    expect(refusal('x'.repeat(2001)).position).toBe(2000);
    expect(refusal(`${'NOT '.repeat(30)}status = x`).message).toMatch(/deeper than 20 levels/);
    expect(refusal(`${'('.repeat(995)}a = 1${')'.repeat(995)}`).message).toBe("unknown field 'a' at 995");
    expect(refusal(Array.from({ length: 101 }, () => 'label = a').join(' OR ')).message).toMatch(
      /more than 100 conditions/,
    );
  });
});
