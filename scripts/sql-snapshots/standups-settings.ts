import * as repo from '../../src/modules/standups/settings.repository.ts';
import { snapshotsOf } from './record.ts';

const at = '2026-11-21T09:00:00.000Z';
const settings = {
  timezone: 'Europe/Berlin',
  days: '["mon","tue"]',
  reminder_time: '09:30',
  questions: '["What is next?"]',
};

export default snapshotsOf('modules/standups/settings.repository.ts', repo, {
  findSettings: ({ db }) => repo.findSettings(db, 1),
  ensureSettings: ({ db }) => repo.ensureSettings(db, 1, settings, at),
  lockSettings: ({ db, dialect }) => repo.lockSettings(db, dialect, 1),
  updateSettings: ({ db }) => repo.updateSettings(db, 1, settings, 3, at),
});
