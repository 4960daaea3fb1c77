import type { StatusCategory } from '../../db/schema.ts';
import type { Comparison } from './ast.ts';
import type { DateColumn, FieldName, InstantColumn, NumberColumn, TextScope } from './fields.ts';

/**
 * A query bound to one use (bind.ts): names resolved to the records the caller can see, times
 * to dates and instants in the request's time zone. It has one meaning, compiled to SQL
 * (query.repository.ts) and to a predicate over tasks (predicate.ts).
 *
 * Record names are resolved to ids for SQL and, where the task JSON holds names rather than
 * ids (statuses, types, priorities, labels), to `pairs`: `${project key}\u0000${name}` as
 * the project spells it.
 */
export type BoundLeaf =
  | { kind: 'const'; value: boolean }
  | { kind: 'project'; ids: number[]; keys: string[] }
  | { kind: 'key'; keys: string[] }
  | { kind: 'listed'; field: 'status' | 'type' | 'priority'; ids: number[]; pairs: string[] }
  | { kind: 'category'; categories: StatusCategory[] }
  | { kind: 'person'; field: 'assignee' | 'creator'; ids: number[] }
  | { kind: 'follower'; ids: number[] }
  | { kind: 'label'; ids: number[]; pairs: string[] }
  | { kind: 'planning'; field: 'milestone' | 'sprint'; ids: number[] }
  | { kind: 'parent'; ids: number[]; keys: string[] }
  /** A field without a value (only fields declared `nullable`). */
  | { kind: 'empty'; field: FieldName }
  | { kind: 'date'; column: DateColumn; comparison: Comparison; date: string }
  | { kind: 'number'; column: NumberColumn; comparison: Comparison; value: number }
  /** `iso` in the stored form (microseconds, UTC), which compares as text. */
  | { kind: 'instant'; column: InstantColumn; comparison: Comparison; iso: string }
  | { kind: 'match'; scope: TextScope; words: string[] }
  /** Has an open (not done) blocker in one of `projectIds`, the projects the caller sees. */
  | { kind: 'blocked'; projectIds: number[] }
  | { kind: 'custom-empty'; fieldId: number }
  /** The stored JSON of the value is one of `json`. */
  | { kind: 'custom-equals'; fieldId: number; json: string[] }
  /** A multi_select value holds any of `optionIds`. */
  | { kind: 'custom-contains'; fieldId: number; optionIds: number[] }
  | {
      kind: 'custom-compare';
      fieldId: number;
      type: 'number' | 'date';
      comparison: Exclude<Comparison, '='>;
      value: number | string;
    };

export type Bound = BoundLeaf | { kind: 'and' | 'or'; items: Bound[] } | { kind: 'not'; expr: Bound };

export const pairOf = (projectKey: string, name: string): string => `${projectKey}\u0000${name}`;
