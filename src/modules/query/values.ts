import type { TimeValue } from './ast.ts';
import { DAY_FUNCTIONS, type DayFunction } from './fields.ts';
import { QueryError } from './query-error.ts';
import type { Operator, ValueSyntax } from './syntax.ts';

/** How values are read, the same for task fields (check.ts) and custom fields (bind.ts). */
export const OPERATOR_TEXT: Record<Operator, string> = {
  '=': '=',
  '!=': '!=',
  '<': '<',
  '<=': '<=',
  '>': '>',
  '>=': '>=',
  '~': '~',
  '!~': '!~',
  in: 'IN',
  'not in': 'NOT IN',
  'is empty': 'IS EMPTY',
  'is not empty': 'IS NOT EMPTY',
};
export const EQUALITY: Operator[] = ['=', '!=', 'in', 'not in'];
export const ORDERED: Operator[] = ['<', '<=', '>', '>='];
export const EMPTINESS: Operator[] = ['is empty', 'is not empty'];
export const NEGATIVE: Operator[] = ['!=', 'not in', '!~', 'is not empty'];

export const TIME_FUNCTIONS = ['now', ...DAY_FUNCTIONS];

function isCalendarDate(date: string): boolean {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === date;
}

/** A date, a time from now (`-7d`, `+2w`, `-3h`; no sign is `+`) or a date function. */
export function timeValue(value: ValueSyntax, field: string): TimeValue {
  if (value.kind === 'function') {
    if (value.name === 'now') return { type: 'now' };
    if ((DAY_FUNCTIONS as readonly string[]).includes(value.name))
      return { type: 'day', fn: value.name as DayFunction };
  } else {
    if (isCalendarDate(value.text)) return { type: 'date', date: value.text };
    const relative = /^([+-]?)(\d{1,5})([hdw])$/i.exec(value.text);
    if (relative)
      return {
        type: 'relative',
        amount: Number(relative[2]) * (relative[1] === '-' ? -1 : 1),
        unit: relative[3]!.toLowerCase() as 'h' | 'd' | 'w',
      };
  }
  const found = value.kind === 'word' ? `'${value.text}'` : `${value.name}()`;
  throw new QueryError(
    `expected a date (YYYY-MM-DD), a time from now (-7d, +2w, -3h) or a date function for '${field}' at ${value.position}, found ${found}`,
    value.position,
    ['a date (YYYY-MM-DD)', 'a time from now (-7d, +2w, -3h)', ...TIME_FUNCTIONS.map((f) => `${f}()`)],
  );
}

export function booleanValue(value: ValueSyntax): boolean {
  const text = value.kind === 'word' ? value.text.toLowerCase() : '';
  if (text === 'true' || text === 'false') return text === 'true';
  throw new QueryError(`expected true or false at ${value.position}`, value.position, ['true', 'false']);
}

export function numberValue(value: ValueSyntax): number {
  const n = value.kind === 'word' && value.text.trim() !== '' ? Number(value.text) : Number.NaN;
  if (Number.isFinite(n)) return n;
  throw new QueryError(`expected a number at ${value.position}`, value.position, ['a number']);
}
