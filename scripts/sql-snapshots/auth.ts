import * as repo from '../../src/identity/auth.repository.ts';
import { snapshotsOf } from './record.ts';

export default snapshotsOf('identity/auth.repository.ts', repo, {
  accounts: ({ db }) => repo.accounts(db).execute(),
  findTokenWithAccount: ({ db }) =>
    repo.findTokenWithAccount(db, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'),
  authEpoch: ({ db }) => repo.authEpoch(db).execute(),
  recordTokenUse: ({ db }) => repo.recordTokenUse(db, 5, '2026-11-21T09:00:00.000Z'),
});
