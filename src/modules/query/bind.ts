import { isoFromMs } from '../../clock.ts';
import type { CustomFieldType } from '../../db/schema.ts';
import type { Comparison, Condition, Expression, Reference, TimeValue, TypedQuery } from './ast.ts';
import { type Bound, type BoundLeaf, pairOf } from './bound.ts';
import { QueryError } from './query-error.ts';
import type { FunctionSyntax, Operator } from './syntax.ts';
import {
  booleanValue,
  EMPTINESS,
  EQUALITY,
  NEGATIVE,
  numberValue,
  OPERATOR_TEXT,
  ORDERED,
  TIME_FUNCTIONS,
  timeValue,
} from './values.ts';
import { addDays, dateOf, resolveTime, startOfDate, type TimeContext } from './time.ts';

/** Names compare without regard to case or Unicode form: `status = "in progress"` finds "In Progress". */
export const normalName = (name: string): string => name.normalize('NFKC').toLowerCase();

export interface ProjectOption {
  id: number;
  project_id: number;
  name: string;
  position: number;
}

export interface CustomFieldForQuery {
  id: number;
  name: string;
  type: CustomFieldType;
  options: Array<{ id: number; value: string }>;
}

/**
 * What binding reads, limited to what the caller can see: the projects given, the caller's
 * organization, the custom fields visible to the caller. query.repository.ts reads it from the
 * database; each is asked only when the query needs it.
 */
export interface QueryLookups {
  /** Statuses, task types or priorities of the projects. */
  options(kind: 'status' | 'type' | 'priority', projectIds: number[]): Promise<ProjectOption[]>;
  labels(projectIds: number[]): Promise<Array<{ id: number; project_id: number; name: string }>>;
  /** Accounts of the organization with one of these handles or (lower-cased) e-mails, or ids. */
  people(
    handlesOrEmails: string[],
    ids: number[],
  ): Promise<Array<{ id: number; handle: string; email: string | null }>>;
  milestones(projectIds: number[]): Promise<Array<{ id: number; project_id: number; name: string }>>;
  sprints(projectIds: number[]): Promise<Array<{ id: number; project_id: number; name: string; state: string }>>;
  /** Tasks of the projects with these keys. */
  tasks(projectIds: number[], keys: string[]): Promise<Array<{ id: number; key: string }>>;
  customFields(): Promise<CustomFieldForQuery[]>;
}

export interface BindContext {
  callerId: number;
  /** The projects the query may see: the caller's, or the one project of a project's list. */
  projects: Array<{ id: number; key: string }>;
  time: TimeContext;
  lookups: QueryLookups;
}

/** Binds a checked query's conditions to the caller, the clock and the data (see bound.ts). */
export async function bindQuery(query: TypedQuery, context: BindContext): Promise<Bound | null> {
  return query.where && new Binder(context).expression(query.where);
}

class Binder {
  private readonly projectIds: number[];
  private readonly keyOf: Map<number, string>;
  private readonly cache = new Map<string, Promise<unknown>>();

  constructor(private readonly context: BindContext) {
    this.projectIds = context.projects.map((p) => p.id);
    this.keyOf = new Map(context.projects.map((p) => [p.id, p.key]));
  }

  async expression(expression: Expression): Promise<Bound> {
    switch (expression.kind) {
      case 'and':
      case 'or':
        return { kind: expression.kind, items: await Promise.all(expression.items.map((e) => this.expression(e))) };
      case 'not':
        return { kind: 'not', expr: await this.expression(expression.expr) };
      default:
        return this.condition(expression);
    }
  }

  /** Each lookup once per binding, however many conditions need it. */
  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let found = this.cache.get(key) as Promise<T> | undefined;
    if (!found) {
      found = load();
      this.cache.set(key, found);
    }
    return found;
  }

  private async condition(condition: Condition): Promise<Bound> {
    const { time } = this.context;
    switch (condition.kind) {
      case 'reference':
        return this.reference(condition.reference, condition.values);
      case 'ranked':
        return this.ranked(condition.reference, condition.comparison, condition.value);
      case 'category':
        return { kind: 'category', categories: condition.categories };
      case 'empty':
        return { kind: 'empty', field: condition.field };
      case 'date':
        return {
          kind: 'date',
          column: condition.column,
          comparison: condition.comparison,
          date: dateOf(resolveTime(condition.value, time), time.timeZone),
        };
      case 'instant':
        return instantCondition(condition.column, condition.comparison, condition.value, time);
      case 'number':
        return condition;
      case 'match':
        return { kind: 'match', scope: condition.scope, words: condition.words };
      case 'blocked': {
        const blocked = { kind: 'blocked', projectIds: this.projectIds } as const;
        return condition.value ? blocked : { kind: 'not', expr: blocked };
      }
      case 'custom':
        return this.custom(condition);
    }
  }

  private names(values: Reference[]): string[] {
    return values.flatMap((v) => (v.type === 'name' ? [normalName(v.text)] : []));
  }

  private async reference(reference: Extract<Condition, { kind: 'reference' }>['reference'], values: Reference[]) {
    const names = new Set(this.names(values));
    const { lookups } = this.context;
    switch (reference) {
      case 'project': {
        const found = this.context.projects.filter((p) => names.has(normalName(p.key)));
        return { kind: 'project', ids: found.map((p) => p.id), keys: found.map((p) => p.key) } satisfies BoundLeaf;
      }
      case 'key':
        return { kind: 'key', keys: [...names].map((k) => k.toUpperCase()) } satisfies BoundLeaf;
      case 'status':
      case 'type':
      case 'priority': {
        const found = (await this.options(reference)).filter((o) => names.has(normalName(o.name)));
        return this.listed(reference, found);
      }
      case 'label': {
        const labels = await this.once('labels', () => lookups.labels(this.projectIds));
        const found = labels.filter((l) => names.has(normalName(l.name)));
        return { kind: 'label', ids: found.map((l) => l.id), pairs: this.pairs(found) } satisfies BoundLeaf;
      }
      case 'assignee':
      case 'creator':
        return { kind: 'person', field: reference, ids: await this.people(values) } satisfies BoundLeaf;
      case 'follower':
        return { kind: 'follower', ids: await this.people(values) } satisfies BoundLeaf;
      case 'milestone':
      case 'sprint': {
        const rows =
          reference === 'sprint'
            ? await this.once('sprints', () => lookups.sprints(this.projectIds))
            : await this.once('milestones', () => lookups.milestones(this.projectIds));
        const active = values.some((v) => v.type === 'openSprint');
        const found = rows.filter(
          (row) =>
            names.has(normalName(row.name)) ||
            names.has(String(row.id)) ||
            (active && 'state' in row && row.state === 'active'),
        );
        return { kind: 'planning', field: reference, ids: found.map((r) => r.id) } satisfies BoundLeaf;
      }
      case 'parent': {
        const keys = [...names].map((k) => k.toUpperCase());
        const found = keys.length ? await lookups.tasks(this.projectIds, keys) : [];
        return { kind: 'parent', ids: found.map((t) => t.id), keys: found.map((t) => t.key) } satisfies BoundLeaf;
      }
    }
  }

  private options(kind: 'status' | 'type' | 'priority'): Promise<ProjectOption[]> {
    return this.once(kind, () => this.context.lookups.options(kind, this.projectIds));
  }

  private pairs(rows: Array<{ project_id: number; name: string }>): string[] {
    return rows.map((row) => pairOf(this.keyOf.get(row.project_id)!, row.name));
  }

  private listed(field: 'status' | 'type' | 'priority', rows: ProjectOption[]): BoundLeaf {
    return { kind: 'listed', field, ids: rows.map((r) => r.id), pairs: this.pairs(rows) };
  }

  /** `priority >= High`: in each project that has a High, its priorities from High on, in the project's order. */
  private async ranked(field: 'status' | 'priority', comparison: Exclude<Comparison, '='>, value: Reference) {
    const options = await this.options(field);
    const name = value.type === 'name' ? normalName(value.text) : '';
    const pivots = new Map(options.filter((o) => normalName(o.name) === name).map((o) => [o.project_id, o.position]));
    const found = options.filter((o) => {
      const pivot = pivots.get(o.project_id);
      return pivot !== undefined && compare(o.position, comparison, pivot);
    });
    return this.listed(field, found);
  }

  private async people(values: Reference[]): Promise<number[]> {
    const ids = values.some((v) => v.type === 'me') ? [this.context.callerId] : [];
    const texts = this.names(values);
    if (texts.length === 0) return ids;
    const numeric = texts.filter((t) => /^\d{1,10}$/.test(t)).map(Number);
    const found = await this.context.lookups.people(texts, numeric);
    return [...new Set([...ids, ...found.map((p) => p.id)])];
  }

  private async custom(condition: Extract<Condition, { kind: 'custom' }>): Promise<Bound> {
    const fields = await this.once('customFields', () => this.context.lookups.customFields());
    const field = fields.find((f) => normalName(f.name) === normalName(condition.name));
    const negated = NEGATIVE.includes(condition.operator);
    // A field the caller cannot see is no error: the condition matches nothing, revealing nothing.
    const positive = field ? await this.customCondition(field, condition) : ({ kind: 'const', value: false } as const);
    return negated ? { kind: 'not', expr: positive } : positive;
  }

  private async customCondition(
    field: CustomFieldForQuery,
    condition: Extract<Condition, { kind: 'custom' }>,
  ): Promise<BoundLeaf> {
    const { operator, values, position } = condition;
    const allowed = customOperators(field.type);
    if (!allowed.includes(operator))
      throw new QueryError(
        `the operator ${OPERATOR_TEXT[operator]} cannot be used with the ${field.type} field '${field.name}' at ${position}`,
        position,
        allowed.map((op) => OPERATOR_TEXT[op]),
      );
    if (operator === 'is empty' || operator === 'is not empty') return { kind: 'custom-empty', fieldId: field.id };
    const functions = field.type === 'user' ? ['me'] : field.type === 'date' ? TIME_FUNCTIONS : [];
    const misplaced = values.find((v) => v.kind === 'function' && !functions.includes(v.name));
    if (misplaced)
      throw new QueryError(
        `the function ${(misplaced as FunctionSyntax).name}() cannot be used with the ${field.type} field '${field.name}' at ${misplaced.position}`,
        misplaced.position,
        functions.length ? functions.map((f) => `${f}()`) : ['a value'],
      );
    if (['<', '<=', '>', '>='].includes(operator)) {
      const comparison = operator as Exclude<Comparison, '='>;
      const value =
        field.type === 'number'
          ? numberValue(values[0]!)
          : dateOf(resolveTime(timeValue(values[0]!, field.name), this.context.time), this.context.time.timeZone);
      return { kind: 'custom-compare', fieldId: field.id, type: field.type as 'number' | 'date', comparison, value };
    }
    switch (field.type) {
      case 'select':
      case 'multi_select': {
        const names = new Set(values.map((v) => (v.kind === 'word' ? normalName(v.text) : '')));
        const ids = field.options
          .filter((o) => names.has(normalName(o.value)) || names.has(String(o.id)))
          .map((o) => o.id);
        return field.type === 'select'
          ? { kind: 'custom-equals', fieldId: field.id, json: ids.map(String) }
          : { kind: 'custom-contains', fieldId: field.id, optionIds: ids };
      }
      case 'user': {
        const references = values.map((v): Reference =>
          v.kind === 'function' && v.name === 'me'
            ? { type: 'me' }
            : { type: 'name', text: v.kind === 'word' ? v.text : '' },
        );
        return { kind: 'custom-equals', fieldId: field.id, json: (await this.people(references)).map(String) };
      }
      case 'number':
        return { kind: 'custom-equals', fieldId: field.id, json: values.map((v) => JSON.stringify(numberValue(v))) };
      case 'boolean':
        return { kind: 'custom-equals', fieldId: field.id, json: values.map((v) => String(booleanValue(v))) };
      case 'date': {
        const { time } = this.context;
        return {
          kind: 'custom-equals',
          fieldId: field.id,
          json: values.map((v) => JSON.stringify(dateOf(resolveTime(timeValue(v, field.name), time), time.timeZone))),
        };
      }
      default:
        return {
          kind: 'custom-equals',
          fieldId: field.id,
          json: values.map((v) => JSON.stringify(v.kind === 'word' ? v.text : '')),
        };
    }
  }
}

function compare<T extends number | string>(a: T, comparison: Comparison, b: T): boolean {
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

/**
 * An instant field against a time: against an instant, directly; against a date, the field's
 * own date in the time zone (`created = today()` is any time today), written as a range of
 * instants so the column is compared as stored.
 */
function instantCondition(
  column: Extract<Condition, { kind: 'instant' }>['column'],
  comparison: Comparison,
  value: TimeValue,
  time: TimeContext,
): Bound {
  const resolved = resolveTime(value, time);
  const leaf = (op: Comparison, ms: number): BoundLeaf => ({
    kind: 'instant',
    column,
    comparison: op,
    iso: isoFromMs(ms),
  });
  if ('instant' in resolved) return leaf(comparison, resolved.instant);
  const start = startOfDate(resolved.date, time.timeZone);
  const next = startOfDate(addDays(resolved.date, 1), time.timeZone);
  switch (comparison) {
    case '=':
      return { kind: 'and', items: [leaf('>=', start), leaf('<', next)] };
    case '<':
      return leaf('<', start);
    case '<=':
      return leaf('<', next);
    case '>':
      return leaf('>=', next);
    case '>=':
      return leaf('>=', start);
  }
}

function customOperators(type: CustomFieldType): Operator[] {
  if (type === 'number' || type === 'date') return [...EQUALITY, ...ORDERED, ...EMPTINESS];
  if (type === 'boolean') return ['=', '!=', ...EMPTINESS];
  return [...EQUALITY, ...EMPTINESS];
}
