import type { StatusCategory } from '../../db/schema.ts';
import type { Comparison, Condition, Expression, Ordering, Reference, TimeValue, TypedQuery } from './ast.ts';
import {
  CUSTOM_FIELD,
  DAY_FUNCTIONS,
  FIELD_NAMES,
  type FieldDef,
  type FieldName,
  fieldDef,
  ORDERABLE_FIELDS,
} from './fields.ts';
import { QueryError } from './query-error.ts';
import { closest } from './suggest.ts';
import {
  type ClauseSyntax,
  type ExpressionSyntax,
  type FieldSyntax,
  type Operator,
  parseQuery,
  type ValueSyntax,
} from './syntax.ts';
import {
  booleanValue,
  EMPTINESS,
  EQUALITY,
  NEGATIVE,
  numberValue,
  OPERATOR_TEXT,
  ORDERED,
  timeValue,
  TIME_FUNCTIONS,
} from './values.ts';
import { queryWords } from './words.ts';

/** Limits that keep a query's SQL and its evaluation small whatever is sent. */
const MAX_CONDITIONS = 100;
const MAX_DEPTH = 20;

const CATEGORIES: StatusCategory[] = ['todo', 'in_progress', 'done'];
/** The operators a field takes. */
export function operatorsOf(def: FieldDef): Operator[] {
  const empty = 'nullable' in def && def.nullable ? EMPTINESS : [];
  switch (def.kind) {
    case 'reference':
      return [...EQUALITY, ...(def.ranked ? ORDERED : []), ...empty];
    case 'category':
      return EQUALITY;
    case 'date':
    case 'instant':
    case 'number':
      return ['=', '!=', ...ORDERED, ...empty];
    case 'text':
      return ['~', '!~', ...empty];
    case 'blocked':
      return ['=', '!='];
  }
}

/**
 * Parses and checks a query: every field, operator, value and function must make sense
 * together, or a QueryError points at the first that does not. Names of records (statuses,
 * labels, people...) are not looked up here: one that does not exist simply matches nothing.
 */
export function checkQuery(text: string): TypedQuery {
  const syntax = parseQuery(text);
  const checker = new Checker(text);
  return {
    where: syntax.where && checker.expression(syntax.where, 0),
    orderBy: syntax.orderBy.map((item) => checker.ordering(item.field, item.direction)),
  };
}

class Checker {
  private conditions = 0;

  constructor(private readonly text: string) {}

  expression(syntax: ExpressionSyntax, depth: number): Expression {
    if (depth > MAX_DEPTH) {
      const position = 'position' in syntax ? syntax.position : 0;
      throw new QueryError(`the query nests deeper than ${MAX_DEPTH} levels at ${position}`, position, []);
    }
    switch (syntax.kind) {
      case 'and':
      case 'or':
        return { kind: syntax.kind, items: syntax.items.map((item) => this.expression(item, depth + 1)) };
      case 'not':
        return { kind: 'not', expr: this.expression(syntax.expr, depth + 1) };
      case 'clause':
        if (++this.conditions > MAX_CONDITIONS)
          throw new QueryError(
            `the query has more than ${MAX_CONDITIONS} conditions at ${syntax.position}`,
            syntax.position,
            [],
          );
        return this.clause(syntax);
    }
  }

  ordering(field: FieldSyntax, direction: 'asc' | 'desc'): Ordering {
    const name = field.name.toLowerCase();
    if (ORDERABLE_FIELDS.includes(name as FieldName) && field.custom === undefined)
      return { field: name as FieldName, direction };
    const known = fieldDef(name) !== undefined || name === CUSTOM_FIELD;
    const hint = known ? '' : suggestion(name, ORDERABLE_FIELDS);
    const what = known ? `cannot order by '${shown(field)}'` : `unknown field '${shown(field)}'`;
    throw new QueryError(`${what} at ${field.position}${hint}`, field.position, [...ORDERABLE_FIELDS]);
  }

  private clause(clause: ClauseSyntax): Expression {
    const { field, operator } = clause;
    const name = field.name.toLowerCase();
    if (name === CUSTOM_FIELD && field.custom !== undefined)
      return { kind: 'custom', name: field.custom, operator, values: clause.values, position: field.position };
    const def = fieldDef(name);
    if (!def) {
      const fields = [...FIELD_NAMES, 'cf["…"]'];
      throw new QueryError(
        `unknown field '${shown(field)}' at ${field.position}${suggestion(name, FIELD_NAMES)}`,
        field.position,
        fields,
      );
    }
    const allowed = operatorsOf(def);
    if (!allowed.includes(operator)) {
      const position = this.operatorPosition(field);
      throw new QueryError(
        `the operator ${OPERATOR_TEXT[operator]} cannot be used with '${name}' at ${position}`,
        position,
        allowed.map((op) => OPERATOR_TEXT[op]),
      );
    }
    const negated = NEGATIVE.includes(operator);
    const positive = this.condition(name as FieldName, def, operator, clause.values);
    return negated ? { kind: 'not', expr: positive } : positive;
  }

  private condition(name: FieldName, def: FieldDef, operator: Operator, values: ValueSyntax[]): Condition {
    if (operator === 'is empty' || operator === 'is not empty') return { kind: 'empty', field: name };
    const first = values[0]!;
    switch (def.kind) {
      case 'reference': {
        if (ORDERED.includes(operator))
          return {
            kind: 'ranked',
            reference: def.reference as 'status' | 'priority',
            comparison: operator as Exclude<Comparison, '='>,
            value: this.reference(name, [], first),
          };
        return {
          kind: 'reference',
          reference: def.reference,
          values: values.map((value) => this.reference(name, def.functions ?? [], value)),
        };
      }
      case 'category':
        return { kind: 'category', categories: [...new Set(values.map((value) => this.category(value)))] };
      case 'date':
      case 'instant':
        return {
          kind: def.kind,
          column: def.column,
          comparison: (operator === '!=' ? '=' : operator) as Comparison,
          value: this.time(name, first),
        } as Condition;
      case 'number':
        return {
          kind: 'number',
          column: def.column,
          comparison: (operator === '!=' ? '=' : operator) as Comparison,
          value: numberValue(first),
        };
      case 'text':
        return { kind: 'match', scope: def.scope, words: this.words(first) };
      case 'blocked':
        return { kind: 'blocked', value: booleanValue(first) };
    }
  }

  private reference(field: string, functions: string[], value: ValueSyntax): Reference {
    if (value.kind === 'word') return { type: 'name', text: value.text };
    if (value.name === 'me' && functions.includes('me')) return { type: 'me' };
    if (value.name === 'openSprint' && functions.includes('openSprint')) return { type: 'openSprint' };
    throw this.badFunction(field, value, functions);
  }

  private category(value: ValueSyntax): StatusCategory {
    const text = value.kind === 'word' ? value.text.toLowerCase() : `${value.name}()`;
    if ((CATEGORIES as string[]).includes(text)) return text as StatusCategory;
    throw new QueryError(
      `unknown status category '${text}' at ${value.position}${suggestion(text, CATEGORIES)}`,
      value.position,
      CATEGORIES,
    );
  }

  private time(field: string, value: ValueSyntax): TimeValue {
    if (value.kind === 'function' && !TIME_FUNCTIONS.includes(value.name))
      throw this.badFunction(field, value, TIME_FUNCTIONS);
    return timeValue(value, field);
  }

  private words(value: ValueSyntax): string[] {
    const words = value.kind === 'word' ? queryWords(value.text) : [];
    if (words.length === 0)
      throw new QueryError(`expected words to search for at ${value.position}`, value.position, ['words']);
    return words;
  }

  private badFunction(
    field: string,
    value: ValueSyntax & { kind: 'function' },
    allowed: readonly string[],
  ): QueryError {
    const known = ['me', 'now', ...DAY_FUNCTIONS, 'openSprint'];
    const what = known.includes(value.name)
      ? `the function ${value.name}() cannot be used with '${field}'`
      : `unknown function '${value.name}()'`;
    const hint = known.includes(value.name) ? '' : suggestion(value.name, allowed.length ? allowed : known, '()');
    const expected = allowed.length ? allowed.map((f) => `${f}()`) : ['a value'];
    return new QueryError(`${what} at ${value.position}${hint}`, value.position, expected);
  }

  private operatorPosition(field: FieldSyntax): number {
    let position = field.end;
    while (/\s/.test(this.text[position] ?? '')) position++;
    return position;
  }
}

function shown(field: FieldSyntax): string {
  return field.custom === undefined ? field.name : `${field.name}["${field.custom}"]`;
}

function suggestion(word: string, candidates: readonly string[], suffix = ''): string {
  const near = closest(word, candidates);
  return near ? `; did you mean '${near}${suffix}'?` : '';
}
