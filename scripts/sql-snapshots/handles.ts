import * as repo from '../../src/modules/accounts/handles.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('modules/accounts/handles.repository.ts', repo, {
  handlesStartingWith: ({ db }) => repo.handlesStartingWith(db, 1, 'alice'),
  handleOf: ({ db }) => repo.handleOf(db, 3),
  setHandle: ({ db }) => repo.setHandle(db, 3, 'ada'),
});
