/**
 * Completion for the query language (docs/api/query-language.md): from the text before the
 * caret, what may come next: a field, an operator for that field, a value or function for it,
 * or a keyword. The server's parser has the last word; this only offers what is likely valid.
 */

type Kind = 'reference' | 'category' | 'date' | 'instant' | 'number' | 'text' | 'blocked';

/** Every field of the language, by the kind of value it holds. */
export const FIELDS: Record<string, Kind> = {
  project: 'reference',
  key: 'reference',
  status: 'reference',
  status_category: 'category',
  type: 'reference',
  priority: 'reference',
  assignee: 'reference',
  creator: 'reference',
  label: 'reference',
  milestone: 'reference',
  sprint: 'reference',
  parent: 'reference',
  due: 'date',
  start: 'date',
  estimate: 'number',
  created: 'instant',
  updated: 'instant',
  title: 'text',
  description: 'text',
  text: 'text',
  follower: 'reference',
  blocked: 'blocked',
};

const OPERATORS: Record<Kind, string[]> = {
  reference: ['=', '!=', 'IN (', 'NOT IN (', 'IS EMPTY', 'IS NOT EMPTY'],
  category: ['=', '!=', 'IN (', 'NOT IN ('],
  date: ['<', '<=', '>', '>=', '=', '!=', 'IS EMPTY', 'IS NOT EMPTY'],
  instant: ['<', '<=', '>', '>=', '=', '!='],
  number: ['<', '<=', '>', '>=', '=', '!=', 'IS EMPTY', 'IS NOT EMPTY'],
  text: ['~', '!~', '=', '!=', 'IS EMPTY', 'IS NOT EMPTY'],
  blocked: ['='],
};
const RANKED = new Set(['status', 'priority']);
const PEOPLE = new Set(['assignee', 'creator', 'follower']);
const DATE_FUNCTIONS = [
  'today()',
  'now()',
  'startOfWeek()',
  'endOfWeek()',
  'startOfMonth()',
  'endOfMonth()',
  '-7d',
  '+2w',
];

/** Values the app knows of, per field (status names, labels, people...), to offer after an operator. */
export type KnownValues = Partial<Record<string, string[]>>;

export interface Suggestion {
  /** What the list shows and, unless `insert` says otherwise, what replaces the word being typed. */
  label: string;
  insert: string;
  kind: 'field' | 'operator' | 'value' | 'function' | 'keyword';
}

export interface Completion {
  /** Where the word being typed starts: a chosen suggestion replaces the text from here to the caret. */
  from: number;
  suggestions: Suggestion[];
}

/** A bare word needs no quotes; anything else (spaces, @, quotes) is quoted with escapes. */
export const quote = (value: string) =>
  /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(value) ? value : `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;

interface Token {
  text: string;
  start: number;
}

/** Words, strings, operators and brackets, as the grammar splits them (an unfinished string is one token). */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  const pattern = /"(?:[^"\\]|\\.)*"?|!=|<=|>=|!~|[=<>~(),]|[^\s"=<>!~(),]+|!/g;
  for (const m of text.matchAll(pattern)) out.push({ text: m[0], start: m.index });
  return out;
}

const upper = (t: Token | undefined) => t?.text.toUpperCase();
const CONNECTIVES = new Set(['AND', 'OR', 'NOT', '(']);

/** What may follow the text before the caret, narrowed to what starts with the word being typed. */
export function complete(text: string, caret: number, known: KnownValues): Completion {
  const before = text.slice(0, caret);
  const all = tokens(before);
  // The word being typed, if the caret touches one; the context is what comes before it.
  const last = all.at(-1);
  const typing = last && last.start + last.text.length === caret && !/^[=<>!~(),]+$/.test(last.text) ? last : undefined;
  const context = typing ? all.slice(0, -1) : all;
  const from = typing ? typing.start : caret;
  const prefix = (typing?.text ?? '').replace(/^"/, '').toLowerCase();
  const pick = (list: Suggestion[]) =>
    list.filter((s) => s.label.toLowerCase().startsWith(prefix) && s.label.toLowerCase() !== prefix).slice(0, 50);

  const prev = context.at(-1);
  const prevUpper = upper(prev);
  const fields = (): Suggestion[] => [
    ...Object.keys(FIELDS).map((f) => ({ label: f, insert: `${f} `, kind: 'field' as const })),
    { label: 'NOT', insert: 'NOT ', kind: 'keyword' },
  ];
  if (!prev || (CONNECTIVES.has(prevUpper!) && !inList(context))) return { from, suggestions: pick(fields()) };

  // In ORDER BY: a field after BY or a comma, then its direction.
  if (context.some((t) => upper(t) === 'ORDER')) {
    if (prevUpper === 'ORDER') return { from, suggestions: pick([{ label: 'BY', insert: 'BY ', kind: 'keyword' }]) };
    if (prevUpper === 'BY' || prevUpper === ',')
      return {
        from,
        suggestions: pick(Object.keys(FIELDS).map((f) => ({ label: f, insert: `${f} `, kind: 'field' as const }))),
      };
    return {
      from,
      suggestions: pick(['ASC', 'DESC', ','].map((k) => ({ label: k, insert: `${k} `, kind: 'keyword' as const }))),
    };
  }

  // After a field: its operators.
  const field = prev.text.toLowerCase();
  if (FIELDS[field] && !isValuePosition(context)) {
    const ops = [...OPERATORS[FIELDS[field]]];
    if (RANKED.has(field)) ops.push('<', '<=', '>', '>=');
    return { from, suggestions: pick(ops.map((o) => ({ label: o, insert: `${o} `, kind: 'operator' }))) };
  }

  // After an operator, or inside IN ( ... ): values of the field the comparison is about.
  const about = fieldOfValue(context);
  if (about) {
    const kind = FIELDS[about]!;
    const values: Suggestion[] = [];
    const value = (label: string, insert = label, k: Suggestion['kind'] = 'value') =>
      values.push({ label, insert: `${insert} `, kind: k });
    if (PEOPLE.has(about)) value('me()', 'me()', 'function');
    if (about === 'sprint') value('openSprint()', 'openSprint()', 'function');
    if (kind === 'category') for (const c of ['todo', 'in_progress', 'done']) value(c);
    if (kind === 'blocked') for (const b of ['true', 'false']) value(b);
    if (kind === 'date' || kind === 'instant') for (const f of DATE_FUNCTIONS) value(f, f, 'function');
    for (const v of known[about] ?? []) value(v, quote(v));
    return { from, suggestions: pick(values) };
  }

  // After a complete comparison: join it to the next, close a bracket, or order the results.
  const keywords = ['AND', 'OR', ')', 'ORDER BY'].map((k) => ({ label: k, insert: `${k} `, kind: 'keyword' as const }));
  return { from, suggestions: pick(keywords) };
}

const COMPARATORS = new Set(['=', '!=', '<', '<=', '>', '>=', '~', '!~']);

/** Inside an IN ( ... ) list not closed yet. */
function inList(context: Token[]): boolean {
  let depth = 0;
  for (let i = context.length - 1; i >= 0; i--) {
    const t = context[i]!.text;
    if (t === ')') depth++;
    else if (t === '(') {
      if (depth === 0) return upper(context[i - 1]) === 'IN';
      depth--;
    }
  }
  return false;
}

function isValuePosition(context: Token[]): boolean {
  return fieldOfValue(context) !== undefined;
}

/** The field whose value comes next: right after `field op`, or after `field IN (` and each comma. */
function fieldOfValue(context: Token[]): string | undefined {
  const prev = context.at(-1);
  if (!prev) return undefined;
  if (COMPARATORS.has(prev.text)) {
    const field = context.at(-2)?.text.toLowerCase();
    return field && FIELDS[field] ? field : undefined;
  }
  if ((prev.text === '(' || prev.text === ',') && inList(context)) {
    for (let i = context.length - 1; i >= 0; i--)
      if (context[i]!.text === '(') {
        const field = context[upper(context[i - 2]) === 'NOT' ? i - 3 : i - 2]?.text.toLowerCase();
        return field && FIELDS[field] ? field : undefined;
      }
  }
  return undefined;
}
