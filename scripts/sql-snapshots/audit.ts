import * as repo from '../../src/modules/audit/audit.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal } from './samples.ts';

const at = '2026-11-21T09:00:00.000000Z';

export default snapshotsOf('modules/audit/audit.repository.ts', repo, {
  insertAuditRecord: ({ db }) =>
    repo.insertAuditRecord(db, {
      organization_id: 1,
      occurred_at: at,
      action: 'person.role_changed',
      actor_id: 3,
      actor_label: 'Ada',
      token_id: null,
      session_id: 7,
      source: 'app',
      target_type: 'person',
      target_id: 4,
      target_label: 'Bob <bob@example.test>',
      project_id: null,
      before: '{"role":"member"}',
      after: '{"role":"admin"}',
      address: '127.0.0.1',
      correlation_id: 'req-1',
    }),
  auditRecords: async ({ db }) => {
    await repo.auditRecords(db, { organizationId: 1, seenBy: null }, 51);
    await repo.auditRecords(
      db,
      {
        organizationId: 1,
        seenBy: principal,
        actorId: 3,
        action: 'token.created',
        from: at,
        to: '2026-11-22T09:00:00.000000Z',
        beforeId: 100,
      },
      51,
    );
  },
  deleteAuditRecordsBefore: ({ db }) => repo.deleteAuditRecordsBefore(db, at, 2000),
});
