import * as repo from '../../src/modules/attachments/attachment.repository.ts';
import { snapshotsOf } from './record.ts';
import { principal, firstPage } from './samples.ts';

const at = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('modules/attachments/attachment.repository.ts', repo, {
  attachmentsOfTask: ({ db }) => repo.attachmentsOfTask(db, 42, firstPage),
  findAttachment: ({ db }) => repo.findAttachment(db, 7),
  findVisibleAttachment: ({ db }) => repo.findVisibleAttachment(db, principal, 7),
  insertAttachment: ({ db }) =>
    repo.insertAttachment(db, {
      task_id: 42,
      storage_name: '0123456789abcdef0123456789abcdef',
      filename: 'notes.txt',
      content_type: 'text/plain',
      size: 11,
      sha256: 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9',
      uploaded_by: 3,
      created_at: at,
    }),
  deleteAttachment: ({ db }) => repo.deleteAttachment(db, 7),
  storageNamesOf: async ({ db }) => {
    await repo.storageNamesOf(db, { taskId: 42 });
    await repo.storageNamesOf(db, { projectId: 10 });
  },
  storageNamesInUse: ({ db }) =>
    repo.storageNamesInUse(db, ['0123456789abcdef0123456789abcdef', 'fedcba9876543210fedcba9876543210']),
});
