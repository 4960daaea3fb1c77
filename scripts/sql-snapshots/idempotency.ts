import * as repo from '../../src/http/idempotency.repository.ts';
import { snapshotsOf } from './record.ts';

const at = '2026-11-21T09:00:00.000Z';
const claim = { request_hash: 'ab12', lease_expires_at: '2026-11-21T09:01:00.000Z', created_at: at };
const record = {
  id: 9,
  token_id: 5,
  session_id: null,
  key: 'k-1',
  state: 'in_flight' as const,
  response_status: null,
  response_body: null,
  grants: null,
  ...claim,
};

export default snapshotsOf('http/idempotency.repository.ts', repo, {
  insertClaim: ({ db }) => repo.insertClaim(db, { token_id: 5, key: 'k-1', ...claim }),
  findByKey: async ({ db }) => {
    await repo.findByKey(db, { token_id: 5 }, 'k-1');
    await repo.findByKey(db, { session_id: 6 }, 'k-1');
  },
  takeOver: ({ db }) => repo.takeOver(db, record, claim),
  complete: ({ db }) => repo.complete(db, 9, 201, '{"success":true}', '[]'),
  release: ({ db }) => repo.release(db, 9),
  purgeCreatedBefore: ({ db }) => repo.purgeCreatedBefore(db, at),
});
