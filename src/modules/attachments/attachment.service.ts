import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import type { Principal } from '../../identity/principal.ts';
import { recordEvent } from '../../events/record-event.ts';
import { authorize } from '../../policy/index.ts';
import { recordsOfTask } from '../tasks/records-of-task.ts';
import type { TaskRef } from '../tasks/task.repository.ts';
import { lockExistingTask } from '../tasks/task.service.ts';
import type { Caller } from '../../identity/caller.ts';
import { removeStoredFiles, type StoredFile, storagePath } from './attachment.files.ts';
import * as repo from './attachment.repository.ts';
import type { Attachment } from './attachment.schemas.ts';

/**
 * Attachment rows and their rules. Uploading needs write access to the task's project;
 * deleting is for the uploader or a project admin. The file itself is written before the row
 * (attachment.files.ts) and removed only after the row's deletion commits.
 */
export type AttachmentJson = Static<typeof Attachment>;

function present(row: repo.AttachmentRow): AttachmentJson {
  return {
    id: row.id,
    task: row.task_key,
    filename: row.filename,
    content_type: row.content_type,
    size: Number(row.size),
    sha256: row.sha256,
    uploaded_by: row.uploaded_by === null ? null : { id: row.uploaded_by, name: row.uploader_name ?? '' },
    created_at: row.created_at,
  };
}

const QUERIES = { ofTask: repo.attachmentsOfTask, find: repo.findAttachment, findVisible: repo.findVisibleAttachment };
const records = recordsOfTask('Attachment', QUERIES, present);

export const listAttachments = records.list;

export async function getAttachment(ctx: AppContext, principal: Principal, id: number): Promise<AttachmentJson> {
  return present(await records.visible(ctx, principal, id));
}

export interface AttachmentContent {
  path: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
}

export async function attachmentContent(ctx: AppContext, principal: Principal, id: number): Promise<AttachmentContent> {
  const row = await records.visible(ctx, principal, id);
  return {
    path: storagePath(ctx, row.storage_name),
    filename: row.filename,
    contentType: row.content_type,
    size: Number(row.size),
    sha256: row.sha256,
  };
}

export interface ReceivedUpload {
  file: StoredFile;
  filename: string;
  contentType: string;
}

/**
 * Records a received file on the task. The task is locked and re-read first, so a task deleted
 * while the file was streaming is a 404 (and a concurrent project delete sees this row). The
 * caller removes the file if the transaction does not commit (removedOnFailure).
 */
export async function recordUpload(
  tx: Tx,
  caller: Caller,
  task: TaskRef,
  upload: ReceivedUpload,
): Promise<AttachmentJson> {
  const { title } = await lockExistingTask(tx, task.id);
  const now = tx.clock.nowIso();
  const id = await repo.insertAttachment(tx.db, {
    task_id: task.id,
    storage_name: upload.file.storageName,
    filename: upload.filename,
    content_type: upload.contentType,
    size: upload.file.size,
    sha256: upload.file.sha256,
    uploaded_by: caller.principal.userId,
    created_at: now,
  });
  const attachment = await records.load(tx.db, id);
  await recordEvent(tx.db, {
    type: 'attachment.created',
    origin: caller.origin,
    projectId: task.project.id,
    occurredAt: now,
    data: { attachment, task: { key: task.key, title } },
  });
  return attachment;
}

export async function deleteAttachment(tx: Tx, principal: Principal, id: number): Promise<void> {
  const row = await records.visible(tx, principal, id);
  authorize(
    principal,
    'item.delete',
    { kind: 'item', project: { id: row.project_id, role: row.role }, authorId: row.uploaded_by },
    'the attachment',
  );
  await repo.deleteAttachment(tx.db, id);
  // After the commit: a failed removal leaves an orphan for the sweep, never a row without its file.
  tx.afterCommit(() => removeStoredFiles(tx, [row.storage_name]));
}
