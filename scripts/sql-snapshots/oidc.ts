import * as repo from '../../src/modules/oidc/oidc.repository.ts';
import { snapshotsOf } from './record.ts';

const now = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('modules/oidc/oidc.repository.ts', repo, {
  insertLogin: ({ db }) =>
    repo.insertLogin(db, {
      state_hash: 'sha256',
      nonce: 'nonce',
      code_verifier: 'verifier',
      purpose: 'sign-in',
      requested_by: null,
      next_path: '/',
      created_at: now,
      expires_at: '2026-11-21T09:10:00.000Z',
      used_at: null,
      result: null,
    }),
  useLogin: ({ db }) => repo.useLogin(db, 'sha256', now),
  saveTestResult: ({ db }) => repo.saveTestResult(db, 4, '{}'),
  findTestResult: ({ db }) => repo.findTestResult(db, 4, 3),
  deleteExpiredLogins: ({ db }) => repo.deleteExpiredLogins(db, now),
  findIdentity: ({ db }) => repo.findIdentity(db, 'https://sso.example.com', 'sub-1'),
  insertIdentity: ({ db }) =>
    repo.insertIdentity(db, { user_id: 3, issuer: 'https://sso.example.com', subject: 'sub-1', at: now }),
  touchIdentity: ({ db }) => repo.touchIdentity(db, 4, now),
  humansWithEmailIn: ({ db }) => repo.humansWithEmailIn(db, 1, 'ada@example.com'),
  organizationFor: ({ db }) => repo.organizationFor(db, 'acme'),
  findAccountRole: ({ db }) => repo.findAccountRole(db, 3),
  membershipsOf: ({ db }) => repo.membershipsOf(db, 3, [5, 6]),
  findMapping: ({ db }) => repo.findMapping(db, 1),
  upsertMapping: ({ db }) =>
    repo.upsertMapping(db, {
      organization_id: 1,
      groups_claim: 'groups',
      role_map: '[{"group":"tt-admins","role":"admin"}]',
      project_map: '[]',
      updated_at: now,
      updated_by: 3,
    }),
  deleteMapping: ({ db }) => repo.deleteMapping(db, 1),
});
