import * as repo from '../../src/modules/standups/standups.repository.ts';
import { snapshotsOf } from './record.ts';
import { firstPage, principal } from './samples.ts';

const at = '2026-11-21T09:00:00.000Z';
const dayStart = '2026-11-21T00:00:00.000Z';

export default snapshotsOf('modules/standups/standups.repository.ts', repo, {
  worklistPage: ({ db }) => repo.worklistPage(db, principal, 3, dayStart, firstPage),
  worklistSnapshot: ({ db }) => repo.worklistSnapshot(db, principal, 3, dayStart, 50),
  workedOnSince: ({ db }) => repo.workedOnSince(db, principal, dayStart, 50),
  userInOrganization: ({ db }) => repo.userInOrganization(db, 4, 1),
  visibleProjectIdSet: ({ db }) => repo.visibleProjectIdSet(db, principal),
  findEntryById: ({ db }) => repo.findEntryById(db, 7),
  entriesOfDayPage: async ({ db }) => {
    await repo.entriesOfDayPage(db, principal, '2026-11-21', {}, firstPage);
    await repo.entriesOfDayPage(db, principal, '2026-11-21', { user: 4, state: 'submitted' }, firstPage);
  },
  pastEntriesPage: ({ db }) => repo.pastEntriesPage(db, 1, 4, '2026-11-21', firstPage),
  lockDayEntry: ({ db, dialect }) => repo.lockDayEntry(db, dialect, principal, '2026-11-21', at),
  updateEntry: ({ db }) =>
    repo.updateEntry(db, 7, { state: 'skipped', done: '', doing: '', tasks: '[]', submitted_at: null, updated_at: at }),
  findEntry: ({ db }) => repo.findEntry(db, 3, '2026-11-21'),
  previousSubmittedEntry: ({ db }) => repo.previousSubmittedEntry(db, 3, '2026-11-21'),
  blockersOf: ({ db }) => repo.blockersOf(db, [7, 8]),
  replaceBlockers: ({ db }) =>
    repo.replaceBlockers(db, 7, [{ text: 'Waiting on review', task_key: 'WEB-12', project_id: 10, since: at }]),
});
