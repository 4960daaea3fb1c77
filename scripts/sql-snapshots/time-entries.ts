import * as repo from '../../src/modules/time-entries/time-entry.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal, firstPage } from './samples.ts';

const at = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('modules/time-entries/time-entry.repository.ts', repo, {
  entriesOfTask: ({ db }) => repo.entriesOfTask(db, 42, firstPage),
  findEntry: ({ db }) => repo.findEntry(db, 7),
  findVisibleEntry: ({ db }) => repo.findVisibleEntry(db, principal, 7),
  insertEntry: ({ db }) =>
    repo.insertEntry(db, { task_id: 42, user_id: 3, minutes: 30, date: '2026-11-21', note: 'Review', at }),
  updateEntry: ({ db }) => repo.updateEntry(db, 7, { minutes: 45, note: 'Longer review' }, at),
  deleteEntry: ({ db }) => repo.deleteEntry(db, 7),
});
