import type { TaskJson } from '../tasks/task.schemas.ts';
import type { Comparison } from './ast.ts';
import { type Bound, type BoundLeaf, pairOf } from './bound.ts';
import { FIELDS, type TextScope } from './fields.ts';

/**
 * A bound query as a test of one task in memory, for what is judged task by task after the
 * fact (webhook filters, the changes feed). It means what the SQL of query.repository.ts
 * means; tests/query/agreement.test.ts checks the two on generated queries and tasks.
 */

/** What the predicate reads of a task: its JSON, and what the JSON does not hold. */
export interface TaskFacts extends Pick<
  TaskJson,
  | 'key'
  | 'project'
  | 'title'
  | 'description'
  | 'task_type'
  | 'priority'
  | 'status'
  | 'status_category'
  | 'assignee'
  | 'parent'
  | 'due_date'
  | 'start_date'
  | 'estimate'
  | 'labels'
  | 'milestone'
  | 'sprint'
  | 'custom_fields'
  | 'created_by'
  | 'created_at'
  | 'updated_at'
> {
  followers: number[];
  /** Has an open blocker in a project the query's caller sees. */
  blocked: boolean;
  /** The full-text index's terms of the title and the description (see TextAnalyzer); needed only by `~`. */
  terms?: { title: Set<string>; description: Set<string> };
}

/**
 * The terms a text is indexed under, by the database's own full-text configuration (stemming,
 * accents, stop words), so `~` here agrees with `~` in SQL. See src/db/text-terms.ts.
 */
export interface TextAnalyzer {
  terms(texts: string[]): Promise<Array<Set<string>>>;
}

export interface TaskPredicate {
  (task: TaskFacts): boolean;
  /** Whether the tasks tested need `terms`. */
  usesText: boolean;
}

/** The predicate of a bound query; `null` (no condition) matches every task. */
export async function compilePredicate(bound: Bound | null, analyzer: TextAnalyzer): Promise<TaskPredicate> {
  const words = new Set<string>();
  collectWords(bound, words);
  const wordList = [...words];
  const termsOfWord = new Map(
    (wordList.length ? await analyzer.terms(wordList) : []).map((terms, i) => [wordList[i]!, terms]),
  );
  const test = bound ? compile(bound, termsOfWord) : () => true;
  return Object.assign((task: TaskFacts) => test(task), { usesText: wordList.length > 0 });
}

function collectWords(bound: Bound | null, into: Set<string>): void {
  if (!bound) return;
  if (bound.kind === 'and' || bound.kind === 'or') for (const item of bound.items) collectWords(item, into);
  else if (bound.kind === 'not') collectWords(bound.expr, into);
  else if (bound.kind === 'match') for (const word of bound.words) into.add(word);
}

type Test = (task: TaskFacts) => boolean;

function compile(bound: Bound, termsOfWord: Map<string, Set<string>>): Test {
  switch (bound.kind) {
    case 'and': {
      const items = bound.items.map((item) => compile(item, termsOfWord));
      return (task) => items.every((item) => item(task));
    }
    case 'or': {
      const items = bound.items.map((item) => compile(item, termsOfWord));
      return (task) => items.some((item) => item(task));
    }
    case 'not': {
      const expr = compile(bound.expr, termsOfWord);
      return (task) => !expr(task);
    }
    default:
      return leaf(bound, termsOfWord);
  }
}

function compare<T extends string | number>(a: T, comparison: Comparison, b: T): boolean {
  switch (comparison) {
    case '=':
      return a === b;
    case '<':
      return a < b;
    case '<=':
      return a <= b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
  }
}

const LISTED = { status: 'status', type: 'task_type', priority: 'priority' } as const;

function leaf(bound: BoundLeaf, termsOfWord: Map<string, Set<string>>): Test {
  switch (bound.kind) {
    case 'const':
      return () => bound.value;
    case 'project': {
      const keys = new Set(bound.keys);
      return (task) => keys.has(task.project);
    }
    case 'key': {
      const keys = new Set(bound.keys);
      return (task) => keys.has(task.key);
    }
    case 'listed': {
      const pairs = new Set(bound.pairs);
      const property = LISTED[bound.field];
      return (task) => pairs.has(pairOf(task.project, task[property]));
    }
    case 'category': {
      const categories = new Set<string>(bound.categories);
      return (task) => categories.has(task.status_category);
    }
    case 'person': {
      const ids = new Set(bound.ids);
      const property = bound.field === 'assignee' ? 'assignee' : 'created_by';
      return (task) => task[property] !== null && ids.has(task[property]);
    }
    case 'follower': {
      const ids = new Set(bound.ids);
      return (task) => task.followers.some((id) => ids.has(id));
    }
    case 'label': {
      const pairs = new Set(bound.pairs);
      return (task) => task.labels.some((label) => pairs.has(pairOf(task.project, label)));
    }
    case 'planning': {
      const ids = new Set(bound.ids);
      return (task) => task[bound.field] !== null && ids.has(task[bound.field]!);
    }
    case 'parent': {
      const keys = new Set(bound.keys);
      return (task) => task.parent !== null && keys.has(task.parent);
    }
    case 'empty':
      return emptyTest(bound.field);
    case 'date':
      return (task) => task[bound.column] !== null && compare(task[bound.column]!, bound.comparison, bound.date);
    case 'instant':
      return (task) => compare(task[bound.column], bound.comparison, bound.iso);
    case 'number':
      return (task) => task[bound.column] !== null && compare(task[bound.column]!, bound.comparison, bound.value);
    case 'match':
      return matchTest(bound.scope, bound.words, termsOfWord);
    case 'blocked':
      return (task) => task.blocked;
    case 'custom-empty':
      return (task) => !Object.hasOwn(task.custom_fields, String(bound.fieldId));
    case 'custom-equals': {
      const json = new Set(bound.json);
      return (task) => {
        const value = customValue(task, bound.fieldId);
        return value !== undefined && json.has(JSON.stringify(value));
      };
    }
    case 'custom-contains': {
      const ids = new Set(bound.optionIds);
      return (task) => {
        const value = customValue(task, bound.fieldId);
        return Array.isArray(value) && value.some((id) => ids.has(id as number));
      };
    }
    case 'custom-compare':
      return (task) => {
        const value = customValue(task, bound.fieldId);
        if (value === undefined) return false;
        return bound.type === 'number'
          ? compareNumbers(value as number, bound.comparison, bound.value as number)
          : compare(value as string, bound.comparison, bound.value as string);
      };
  }
}

function customValue(task: TaskFacts, fieldId: number): unknown {
  return Object.hasOwn(task.custom_fields, String(fieldId)) ? task.custom_fields[String(fieldId)] : undefined;
}

function compareNumbers(a: number, comparison: Exclude<Comparison, '='>, b: number): boolean {
  return comparison === '<' ? a < b : comparison === '<=' ? a <= b : comparison === '>' ? a > b : a >= b;
}

function emptyTest(field: keyof typeof FIELDS): Test {
  const def = FIELDS[field];
  if (def.kind === 'date' || def.kind === 'number') return (task) => task[def.column] === null;
  switch (field) {
    case 'assignee':
      return (task) => task.assignee === null;
    case 'creator':
      return (task) => task.created_by === null;
    case 'label':
      return (task) => task.labels.length === 0;
    case 'follower':
      return (task) => task.followers.length === 0;
    case 'milestone':
    case 'sprint':
    case 'parent':
      return (task) => task[field] === null;
    case 'description':
      return (task) => task.description === '';
    default:
      throw new Error(`${field} is never empty`);
  }
}

/**
 * Every word occurs in the scope: each of its terms is among the text's terms. A word with no
 * term (a stop word on PostgreSQL) asks nothing, but a query whose words all lack terms matches
 * nothing, as an empty full-text query does in SQL.
 */
function matchTest(scope: TextScope, words: string[], termsOfWord: Map<string, Set<string>>): Test {
  const wanted = words.flatMap((word) => [...termsOfWord.get(word)!]);
  if (wanted.length === 0) return () => false;
  return (task) => {
    if (!task.terms) throw new Error('a text condition needs the terms of the task');
    const { title, description } = task.terms;
    return wanted.every((term) =>
      scope === 'title'
        ? title.has(term)
        : scope === 'description'
          ? description.has(term)
          : title.has(term) || description.has(term),
    );
  };
}
