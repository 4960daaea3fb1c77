import type { StatusCategory } from '../../db/schema.ts';
import type {
  DateColumn,
  DayFunction,
  FieldName,
  InstantColumn,
  NumberColumn,
  ReferenceName,
  TextScope,
} from './fields.ts';
import type { Operator, ValueSyntax } from './syntax.ts';

/**
 * The typed tree of a checked query (check.ts): every field known, every value of the kind its
 * field holds, `!=`, `NOT IN`, `!~` and `IS NOT EMPTY` written as NOT of their positive form.
 * Names and times stay symbolic here: a saved view or a webhook filter is checked once and
 * bound (bind.ts) to the caller, the clock and the data at each use.
 */
export type Comparison = '=' | '<' | '<=' | '>' | '>=';

/** A value naming a record: as written, or the caller (`me()`), or the project's active sprint. */
export type Reference = { type: 'name'; text: string } | { type: 'me' } | { type: 'openSprint' };

export type TimeValue =
  | { type: 'date'; date: string }
  | { type: 'day'; fn: DayFunction }
  | { type: 'now' }
  | { type: 'relative'; amount: number; unit: 'h' | 'd' | 'w' };

export type Condition =
  | { kind: 'reference'; reference: ReferenceName; values: Reference[] }
  | { kind: 'ranked'; reference: 'status' | 'priority'; comparison: Exclude<Comparison, '='>; value: Reference }
  | { kind: 'category'; categories: StatusCategory[] }
  | { kind: 'empty'; field: FieldName }
  | { kind: 'date'; column: DateColumn; comparison: Comparison; value: TimeValue }
  | { kind: 'instant'; column: InstantColumn; comparison: Comparison; value: TimeValue }
  | { kind: 'number'; column: NumberColumn; comparison: Comparison; value: number }
  | { kind: 'match'; scope: TextScope; words: string[] }
  | { kind: 'blocked'; value: boolean }
  /** `cf["Name"]`: its type is known only once bound to the caller's custom fields. */
  | { kind: 'custom'; name: string; operator: Operator; values: ValueSyntax[]; position: number };

export type Expression = Condition | { kind: 'and' | 'or'; items: Expression[] } | { kind: 'not'; expr: Expression };

export interface Ordering {
  /** One of ORDERABLE_FIELDS. */
  field: FieldName;
  direction: 'asc' | 'desc';
}

export interface TypedQuery {
  where: Expression | null;
  orderBy: Ordering[];
}
