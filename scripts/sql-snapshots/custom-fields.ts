import * as repo from '../../src/modules/custom-fields/custom-fields.repository.ts';
import { snapshotsOf } from './record.ts';
import { firstPage, principal } from './samples.ts';

const at = '2026-11-21T09:00:00.000000Z';

export default snapshotsOf('modules/custom-fields/custom-fields.repository.ts', repo, {
  selectFields: ({ db }) => repo.selectFields(db, 1).execute(),
  optionsByField: ({ db }) => repo.optionsByField(db, [9, 10]),
  projectsByField: ({ db }) => repo.projectsByField(db, [9, 10]),
  lockFields: async ({ db, dialect }) => {
    await repo.lockFields(db, dialect, [9, 10], 'share');
    await repo.lockFields(db, dialect, [9], 'update');
  },
  optionUsage: ({ db, dialect }) => repo.optionUsage(db, dialect, 9, [21, 22]),
  customValuesByTask: ({ db }) => repo.customValuesByTask(db, [42, 43]),
  visibleFields: ({ db }) => repo.visibleFields(db, principal).execute(),
  visibleFieldIdsAmong: ({ db }) => repo.visibleFieldIdsAmong(db, principal, [9, 12]),
  fieldsPage: ({ db }) => repo.fieldsPage(db, principal, 10, firstPage),
  findVisibleField: ({ db }) => repo.findVisibleField(db, principal, 9),
  insertField: ({ db }) =>
    repo.insertField(db, {
      organization_id: 1,
      name: 'Customer',
      type: 'text',
      description: '',
      required: 0,
      all_projects: 1,
      created_by: 3,
      created_at: at,
      updated_at: at,
    }),
  updateFieldColumns: ({ db }) => repo.updateFieldColumns(db, 9, { name: 'Client', updated_at: at }),
  deleteField: ({ db }) => repo.deleteField(db, 9),
  replaceFieldProjects: ({ db }) => repo.replaceFieldProjects(db, 9, [10, 11]),
  projectIdsOfOrganization: ({ db }) => repo.projectIdsOfOrganization(db, 1),
  holdersOutside: ({ db }) => repo.holdersOutside(db, 9, [10, 11]),
  holdersOf: ({ db }) => repo.holdersOf(db, 9),
  insertOptions: ({ db }) =>
    repo.insertOptions(db, 9, [
      { value: 'High', position: 0 },
      { value: 'Low', position: 1 },
    ]),
  updateOption: ({ db }) => repo.updateOption(db, 21, { value: 'Critical', position: 0 }),
  deleteOptions: ({ db }) => repo.deleteOptions(db, [21, 22]),
  findVisibleOption: ({ db }) => repo.findVisibleOption(db, principal, 21),
  otherOptionWithValue: ({ db }) => repo.otherOptionWithValue(db, 9, 'Critical', 21),
  fieldsForTaskWrite: ({ db }) => repo.fieldsForTaskWrite(db, { id: 10, organization_id: 1 }, [9, 12], true),
});
