import * as repo from '../../src/identity/token-issuance.repository.ts';
import { snapshotsOf } from './record.ts';

const at = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('identity/token-issuance.repository.ts', repo, {
  findAccount: ({ db }) => repo.findAccount(db, 3),
  projectsByKeys: async ({ db }) => {
    await repo.projectsByKeys(db, 1, ['WEB', 'OPS']);
    await repo.projectsByKeys(db, 1, []);
  },
  insertToken: ({ db }) =>
    repo.insertToken(db, {
      user_id: 3,
      token_hash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      token_prefix: 'tt_abcdef',
      scopes: '["tasks:write"]',
      project_ids: '[10]',
      expires_at: null,
      revoked_at: null,
      created_at: at,
      name: 'CI',
      created_by: 2,
    }),
});
