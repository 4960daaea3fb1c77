import * as repo from '../../src/modules/people/people.repository.ts';
import { snapshotsOf } from './record.ts';

const now = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('modules/people/people.repository.ts', repo, {
  anyOrganizationExists: ({ db }) => repo.anyOrganizationExists(db),
  findOrganization: ({ db }) => repo.findOrganization(db, 1),
  insertOrganization: ({ db }) => repo.insertOrganization(db, { name: 'Acme', slug: 'acme', created_at: now }),
  renameOrganization: ({ db }) => repo.renameOrganization(db, 1, 'Acme Inc.'),
  lockOrganization: ({ db, dialect }) => repo.lockOrganization(db, dialect, 1),
  peopleOf: ({ db }) => repo.peopleOf(db, 1),
  peopleSharingAProjectWith: ({ db }) => repo.peopleSharingAProjectWith(db, 1, 3),
  findPersonIn: ({ db }) => repo.findPersonIn(db, 1, 3),
  findUser: ({ db }) => repo.findUser(db, 3),
  emailTakenIn: ({ db }) => repo.emailTakenIn(db, 1, 'ada@example.test'),
  hasAnotherActiveOwner: ({ db }) => repo.hasAnotherActiveOwner(db, 1, 3),
  insertUser: ({ db }) =>
    repo.insertUser(db, {
      organization_id: 1,
      kind: 'human',
      name: 'Ada',
      email: 'ada@example.test',
      handle: 'ada',
      role: 'member',
      created_at: now,
      password_hash: '$argon2id$...',
    }),
  setRoleAndActive: ({ db }) => repo.setRoleAndActive(db, 3, { role: 'admin', active: true }, now),
  renamePerson: ({ db }) => repo.renamePerson(db, 3, 'Ada L.'),
  setPasswordHash: ({ db }) => repo.setPasswordHash(db, 3, '$argon2id$...', now),
  insertSetupToken: ({ db }) =>
    repo.insertSetupToken(db, { token_hash: 'sha256', created_at: now, expires_at: '2026-11-22T09:00:00.000Z' }),
  findLiveSetupToken: ({ db }) => repo.findLiveSetupToken(db, 'sha256', now),
  useSetupToken: ({ db }) => repo.useSetupToken(db, 'sha256', now),
  burnSetupTokens: ({ db }) => repo.burnSetupTokens(db, now),
  insertInvitation: ({ db }) =>
    repo.insertInvitation(db, {
      organization_id: 1,
      email: 'bob@example.test',
      role: 'member',
      token_hash: 'sha256',
      invited_by: 3,
      created_at: now,
      expires_at: '2026-11-28T09:00:00.000Z',
    }),
  openInvitationsOf: ({ db }) => repo.openInvitationsOf(db, 1, now),
  revokeOpenInvitation: ({ db }) => repo.revokeOpenInvitation(db, 1, 8, now),
  findOpenInvitation: ({ db }) => repo.findOpenInvitation(db, 'sha256', now),
  claimInvitation: ({ db }) => repo.claimInvitation(db, 8, now),
  setInvitationAccount: ({ db }) => repo.setInvitationAccount(db, 8, 9),
  insertPasswordReset: ({ db }) =>
    repo.insertPasswordReset(db, {
      user_id: 3,
      token_hash: 'sha256',
      created_by: null,
      created_at: now,
      expires_at: '2026-11-21T10:00:00.000Z',
    }),
  findLivePasswordReset: ({ db }) => repo.findLivePasswordReset(db, 'sha256', now),
  usePasswordReset: ({ db }) => repo.usePasswordReset(db, 5, now),
  endOpenResetLinksOf: ({ db }) => repo.endOpenResetLinksOf(db, 3, now),
});
