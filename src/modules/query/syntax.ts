import { parse, SyntaxError as PeggySyntaxError } from './parser.generated.js';
import { QueryError } from './query-error.ts';
import { closest } from './suggest.ts';

/**
 * The syntax tree of a query, as grammar.peggy builds it: names and words as written, with the
 * 0-based offset where each starts (and ends) so errors can point at them. check.ts gives it
 * meaning.
 */
export type Operator =
  '=' | '!=' | '<' | '<=' | '>' | '>=' | '~' | '!~' | 'in' | 'not in' | 'is empty' | 'is not empty';

export interface FieldSyntax {
  name: string;
  /** `cf["Story points"]`: the custom field's name. */
  custom?: string;
  position: number;
  end: number;
}

export interface WordSyntax {
  kind: 'word';
  text: string;
  quoted: boolean;
  position: number;
  end: number;
}

export interface FunctionSyntax {
  kind: 'function';
  name: string;
  position: number;
  end: number;
}

export type ValueSyntax = WordSyntax | FunctionSyntax;

export interface ClauseSyntax {
  kind: 'clause';
  field: FieldSyntax;
  operator: Operator;
  values: ValueSyntax[];
  position: number;
}

export type ExpressionSyntax =
  | ClauseSyntax
  | { kind: 'and' | 'or'; items: ExpressionSyntax[] }
  | { kind: 'not'; expr: ExpressionSyntax; position: number };

export interface OrderSyntax {
  field: FieldSyntax;
  direction: 'asc' | 'desc';
}

export interface QuerySyntax {
  where: ExpressionSyntax | null;
  orderBy: OrderSyntax[];
}

/** Longest query accepted: a saved view or filter, not a document. */
export const MAX_QUERY_LENGTH = 2000;

const KEYWORDS = ['AND', 'OR', 'NOT', 'IN', 'IS', 'EMPTY', 'ORDER BY', 'ASC', 'DESC'];

function describeExpected(expected: PeggySyntaxError['expected']): string[] {
  const names = (expected ?? []).map((e) =>
    e.type === 'literal' ? `"${e.text}"` : e.type === 'end' ? 'end of query' : (e.description ?? String(e.text)),
  );
  return [...new Set(names)];
}

function listed(names: string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}

/** The syntax tree of `text`; a QueryError naming the position and what would have been valid there otherwise. */
export function parseQuery(text: string): QuerySyntax {
  if (text.length > MAX_QUERY_LENGTH)
    throw new QueryError(`the query is longer than ${MAX_QUERY_LENGTH} characters`, MAX_QUERY_LENGTH, []);
  try {
    return parse(text) as QuerySyntax;
  } catch (error) {
    if (!(error instanceof PeggySyntaxError)) throw error;
    const position = error.location.start.offset;
    if (error.expected === null) throw new QueryError(`${error.message} at ${position}`, position, ['"']);
    const expected = describeExpected(error.expected);
    const word = /^[A-Za-z_]+/.exec(text.slice(position))?.[0];
    const keyword =
      word &&
      closest(
        word.toUpperCase(),
        KEYWORDS.filter((k) => expected.includes(k)),
      );
    const found = error.found === null ? 'the end of the query' : `'${text.slice(position, position + 20)}'`;
    const hint = keyword ? `; did you mean '${keyword}'?` : '';
    throw new QueryError(`expected ${listed(expected)} at ${position}, found ${found}${hint}`, position, expected);
  }
}
