import * as repo from '../../src/identity/sessions.repository.ts';
import { snapshotsOf } from './record.ts';

const now = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('identity/sessions.repository.ts', repo, {
  insertSession: ({ db }) =>
    repo.insertSession(db, {
      user_id: 3,
      token_hash: 'sha256',
      created_at: now,
      last_seen_at: now,
      expires_at: '2026-12-21T09:00:00.000Z',
      revoked_at: null,
      user_agent: 'Firefox',
      ip: '192.0.2.1',
    }),
  findSessionByTokenHash: ({ db }) => repo.findSessionByTokenHash(db, 'sha256'),
  sessionStates: ({ db }) => repo.sessionStates(db, [4, 5]),
  touchSession: ({ db }) => repo.touchSession(db, 4, now),
  findSessionOf: ({ db }) => repo.findSessionOf(db, 3, 4),
  revokeSessionRow: ({ db }) => repo.revokeSessionRow(db, 4, now),
  revokeSessionsOf: ({ db }) => repo.revokeSessionsOf(db, 3, now, 4),
  liveSessionsOf: ({ db }) => repo.liveSessionsOf(db, 3, now),
  deleteEndedSessions: ({ db }) => repo.deleteEndedSessions(db, '2026-10-22T09:00:00.000Z', '2026-10-21T09:00:00.000Z'),
  deleteExpiredLinks: ({ db }) => repo.deleteExpiredLinks(db, '2026-10-22T09:00:00.000Z'),
});
