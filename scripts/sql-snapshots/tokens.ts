import * as repo from '../../src/identity/tokens.repository.ts';
import { snapshotsOf } from './record.ts';

const at = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('identity/tokens.repository.ts', repo, {
  liveTokens: ({ db }) => repo.liveTokens(db, { organizationId: 1, accountId: 3 }),
  findLiveTokenIn: ({ db }) => repo.findLiveTokenIn(db, 1, 5),
  projectKeysOf: ({ db }) => repo.projectKeysOf(db, [10, 11]),
  revokeToken: ({ db }) => repo.revokeToken(db, 5, at),
  findTokenForAudit: ({ db }) => repo.findTokenForAudit(db, 5),
  findTokenRevocation: ({ db }) => repo.findTokenRevocation(db, 5),
});
