import * as repo from '../../src/modules/query/query.repository.ts';
import type { Bound } from '../../src/modules/query/bound.ts';
import { snapshotsOf } from './record.ts';

/** One bound query with a condition of every kind, so the snapshot shows each one's SQL. */
const everyKind: Bound = {
  kind: 'and',
  items: [
    { kind: 'project', ids: [10, 11], keys: ['WEB', 'API'] },
    { kind: 'key', keys: ['WEB-1'] },
    { kind: 'listed', field: 'status', ids: [1, 2], pairs: [] },
    { kind: 'not', expr: { kind: 'category', categories: ['done'] } },
    { kind: 'person', field: 'assignee', ids: [3] },
    { kind: 'follower', ids: [3] },
    { kind: 'label', ids: [5], pairs: [] },
    { kind: 'planning', field: 'sprint', ids: [2] },
    { kind: 'parent', ids: [], keys: [] },
    { kind: 'empty', field: 'label' },
    { kind: 'date', column: 'due_date', comparison: '<=', date: '2026-11-22' },
    { kind: 'instant', column: 'updated_at', comparison: '<', iso: '2026-11-14T09:00:00.000000Z' },
    { kind: 'match', scope: 'all', words: ['login', 'timeout'] },
    { kind: 'match', scope: 'description', words: ['login'] },
    { kind: 'blocked', projectIds: [10, 11] },
    { kind: 'custom-empty', fieldId: 4 },
    { kind: 'custom-equals', fieldId: 4, json: ['"hello"'] },
    { kind: 'custom-contains', fieldId: 5, optionIds: [1, 2] },
    { kind: 'custom-compare', fieldId: 6, type: 'number', comparison: '>=', value: 3 },
    {
      kind: 'or',
      items: [
        { kind: 'const', value: false },
        { kind: 'parent', ids: [9], keys: ['WEB-9'] },
      ],
    },
  ],
};

export default snapshotsOf('modules/query/query.repository.ts', repo, {
  taskCondition: ({ db, dialect }) => repo.tasksMatching(db, [10, 11], everyKind, dialect).select('t.id').execute(),
  tasksMatching: ({ db, dialect }) => repo.tasksMatching(db, [10], null, dialect).select('t.id').execute(),
  whereQuery: ({ db, dialect }) =>
    repo
      .whereQuery(db.selectFrom('tasks as t'), { kind: 'blocked', projectIds: [10] }, dialect)
      .select('t.id')
      .execute(),
  orderedPageIds: async ({ db, dialect }) => {
    const matchingIn = (ids: number[]) => repo.tasksMatching(db, ids, everyKind, dialect);
    const projects = [
      { id: 10, key: 'WEB' },
      { id: 11, key: 'API' },
    ];
    const page = { limit: 50, offset: 0, byWords: false };
    await repo
      .orderedPageIds(db, matchingIn, projects, [{ field: 'created', direction: 'desc' }], dialect, page)
      .execute();
    const ordering = [
      { field: 'priority', direction: 'desc' },
      { field: 'due', direction: 'asc' },
      { field: 'key', direction: 'desc' },
    ] as const;
    await repo.orderedPageIds(db, matchingIn, projects, [...ordering], dialect, page).execute();
    // Words required, or over MERGED_PROJECTS_MAX projects: one statement.
    await repo.orderedPageIds(db, matchingIn, projects, [...ordering], dialect, { ...page, byWords: true }).execute();
    const many = Array.from({ length: repo.MERGED_PROJECTS_MAX + 1 }, (_, i) => ({ id: i + 1, key: `P${i + 1}` }));
    await repo.orderedPageIds(db, matchingIn, many, [...ordering], dialect, page).execute();
  },
  queryLookups: async ({ db }) => {
    const lookups = repo.queryLookups(db, 1, [10, 11]);
    await lookups.options('status', [10, 11]);
    await lookups.labels([10, 11]);
    await lookups.people(['alice'], [3]);
    await lookups.milestones([10]);
    await lookups.sprints([10]);
    await lookups.tasks([10], ['WEB-1']);
    await lookups.customFields();
  },
  taskFactsExtras: ({ db }) => repo.taskFactsExtras(db, [1, 2], [10]),
  requiresWords: () => repo.requiresWords(everyKind),
});
