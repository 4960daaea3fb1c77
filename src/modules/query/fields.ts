/**
 * The fields a query can name, one entry each: what kind of value the field holds decides its
 * operators, its values and how it compiles (check.ts, bind.ts, query.repository.ts,
 * predicate.ts). A task column of an existing kind is added with one entry here, e.g.
 * `start: { kind: 'date', column: 'start_date', orderable: true, nullable: true }`.
 */

/** Fields that name other records: projects, statuses, people, labels, tasks... */
export type ReferenceName =
  | 'project'
  | 'key'
  | 'status'
  | 'type'
  | 'priority'
  | 'assignee'
  | 'creator'
  | 'label'
  | 'milestone'
  | 'sprint'
  | 'parent'
  | 'follower';

/** Task columns holding a calendar date (YYYY-MM-DD) or an instant (stored timestamp); the task JSON names them alike. */
export type DateColumn = 'due_date' | 'start_date';
/** Task columns holding a number. */
export type NumberColumn = 'estimate';
export type InstantColumn = 'created_at' | 'updated_at';

export type FieldDef =
  | {
      kind: 'reference';
      reference: ReferenceName;
      nullable?: boolean;
      /** `<`, `>`... follow the project's own order of its statuses or priorities. */
      ranked?: boolean;
      functions?: Array<'me' | 'openSprint'>;
      orderable?: boolean;
    }
  | { kind: 'category'; orderable: true }
  | { kind: 'date'; column: DateColumn; nullable: boolean; orderable: true }
  | { kind: 'instant'; column: InstantColumn; orderable: true }
  | { kind: 'number'; column: NumberColumn; nullable: boolean; orderable: true }
  | { kind: 'text'; scope: TextScope; nullable?: boolean; orderable?: boolean }
  | { kind: 'blocked' };

/** Which words `~` looks in. */
export type TextScope = 'title' | 'description' | 'all';

export const FIELDS = {
  project: { kind: 'reference', reference: 'project', orderable: true },
  key: { kind: 'reference', reference: 'key', orderable: true },
  status: { kind: 'reference', reference: 'status', ranked: true, orderable: true },
  status_category: { kind: 'category', orderable: true },
  type: { kind: 'reference', reference: 'type', orderable: true },
  priority: { kind: 'reference', reference: 'priority', ranked: true, orderable: true },
  assignee: { kind: 'reference', reference: 'assignee', nullable: true, functions: ['me'] },
  creator: { kind: 'reference', reference: 'creator', nullable: true, functions: ['me'] },
  label: { kind: 'reference', reference: 'label', nullable: true },
  milestone: { kind: 'reference', reference: 'milestone', nullable: true },
  sprint: { kind: 'reference', reference: 'sprint', nullable: true, functions: ['openSprint'] },
  parent: { kind: 'reference', reference: 'parent', nullable: true },
  due: { kind: 'date', column: 'due_date', nullable: true, orderable: true },
  start: { kind: 'date', column: 'start_date', nullable: true, orderable: true },
  estimate: { kind: 'number', column: 'estimate', nullable: true, orderable: true },
  created: { kind: 'instant', column: 'created_at', orderable: true },
  updated: { kind: 'instant', column: 'updated_at', orderable: true },
  title: { kind: 'text', scope: 'title', orderable: true },
  description: { kind: 'text', scope: 'description', nullable: true },
  text: { kind: 'text', scope: 'all' },
  follower: { kind: 'reference', reference: 'follower', nullable: true, functions: ['me'] },
  blocked: { kind: 'blocked' },
} satisfies Record<string, FieldDef>;

export type FieldName = keyof typeof FIELDS;
export const FIELD_NAMES = Object.keys(FIELDS) as FieldName[];
/** Written `cf["Field name"]`. */
export const CUSTOM_FIELD = 'cf';

export function fieldDef(name: string): FieldDef | undefined {
  return Object.hasOwn(FIELDS, name) ? (FIELDS as Record<string, FieldDef>)[name] : undefined;
}

export const ORDERABLE_FIELDS = FIELD_NAMES.filter(
  (name) => (FIELDS[name] as FieldDef & { orderable?: boolean }).orderable,
);

/** Functions giving a calendar date in the request's time zone. */
export const DAY_FUNCTIONS = ['today', 'startOfWeek', 'endOfWeek', 'startOfMonth', 'endOfMonth'] as const;
export type DayFunction = (typeof DAY_FUNCTIONS)[number];
export const FUNCTION_NAMES = ['me', 'now', ...DAY_FUNCTIONS, 'openSprint'] as const;
