import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.ts';
import { type BeforeCommit, transactionWith } from '../../db/before-commit.ts';
import type { Executor } from '../../db/database.ts';
import { notFound } from '../../http/errors.ts';
import { type PageRequest } from '../../http/pagination.ts';
import { paginate } from '../../db/paginate.ts';
import type { Principal } from '../auth/principal.ts';
import { authorize, visibleProjects } from '../../policy/index.ts';
import type { TaskRef } from '../tasks/task.repository.ts';
import { lockExistingTask, visibleTask } from '../tasks/task.service.ts';
import { removeStoredFiles, type StoredFile, storagePath } from './attachment.files.ts';
import type { Attachment } from './attachment.schemas.ts';

/**
 * Attachment rows and their rules. Uploading needs write access to the task's project;
 * deleting is for the uploader or a project admin. The file itself is written before the row
 * (attachment.files.ts) and removed only after the row's deletion commits.
 */
export type AttachmentJson = Static<typeof Attachment>;

const COLUMNS = [
  'a.id',
  't.key as task_key',
  'a.storage_name',
  'a.filename',
  'a.content_type',
  'a.size',
  'a.sha256',
  'a.uploaded_by',
  'u.name as uploader_name',
  'a.created_at',
] as const;

function selectAttachments(db: Executor) {
  return db
    .selectFrom('attachments as a')
    .innerJoin('tasks as t', 't.id', 'a.task_id')
    .leftJoin('users as u', 'u.id', 'a.uploaded_by')
    .select(COLUMNS);
}

type AttachmentRow = Awaited<ReturnType<ReturnType<typeof selectAttachments>['executeTakeFirstOrThrow']>>;

function present(row: AttachmentRow): AttachmentJson {
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

/** The attachment if its task is visible to the caller, with the caller's project role (404 otherwise). */
async function visibleAttachment(ctx: AppContext, principal: Principal, id: number) {
  const row = await visibleProjects(ctx.db, principal)
    .innerJoin('tasks as t', 't.project_id', 'p.id')
    .innerJoin('attachments as a', 'a.task_id', 't.id')
    .leftJoin('users as u', 'u.id', 'a.uploaded_by')
    .select([...COLUMNS, 'p.id as project_id', 'pm.role'])
    .where('a.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('Attachment');
  return row;
}

export async function listAttachments(ctx: AppContext, principal: Principal, taskKey: string, page: PageRequest) {
  const task = await visibleTask(ctx, principal, taskKey);
  const { rows, pagination } = await paginate(selectAttachments(ctx.db).where('a.task_id', '=', task.id), page, {
    idColumn: 'a.id',
    orderable: { created_at: 'a.created_at', filename: 'a.filename', size: 'a.size' },
    defaultOrdering: 'created_at',
  });
  return { data: rows.map(present), pagination };
}

export async function getAttachment(ctx: AppContext, principal: Principal, id: number): Promise<AttachmentJson> {
  return present(await visibleAttachment(ctx, principal, id));
}

export interface AttachmentContent {
  path: string;
  filename: string;
  contentType: string;
  size: number;
  sha256: string;
}

export async function attachmentContent(ctx: AppContext, principal: Principal, id: number): Promise<AttachmentContent> {
  const row = await visibleAttachment(ctx, principal, id);
  return { path: storagePath(ctx, row.storage_name), filename: row.filename, contentType: row.content_type, size: Number(row.size), sha256: row.sha256 };
}

export interface ReceivedUpload {
  file: StoredFile;
  filename: string;
  contentType: string;
}

/**
 * Records a received file on the task. The task is locked and re-read first, so a task deleted
 * while the file was streaming is a 404 (and a concurrent project delete sees this row). If the
 * row cannot be written, the file goes too.
 */
export async function recordUpload(
  ctx: AppContext,
  principal: Principal,
  task: TaskRef,
  upload: ReceivedUpload,
  beforeCommit?: BeforeCommit<AttachmentJson>,
): Promise<AttachmentJson> {
  try {
    return await transactionWith(ctx.db, async (trx) => {
      await lockExistingTask(trx, ctx, task.id);
      const { id } = await trx
        .insertInto('attachments')
        .values({
          task_id: task.id,
          storage_name: upload.file.storageName,
          filename: upload.filename,
          content_type: upload.contentType,
          size: upload.file.size,
          sha256: upload.file.sha256,
          uploaded_by: principal.userId,
          created_at: ctx.clock.nowIso(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return present((await selectAttachments(trx).where('a.id', '=', id).executeTakeFirst())!);
    }, beforeCommit);
  } catch (error) {
    await removeStoredFiles(ctx, [upload.file.storageName]);
    throw error;
  }
}

export async function deleteAttachment(ctx: AppContext, principal: Principal, id: number): Promise<void> {
  const row = await visibleAttachment(ctx, principal, id);
  authorize(principal, 'item.delete', { kind: 'item', project: { id: row.project_id, role: row.role }, authorId: row.uploaded_by }, 'the attachment');
  await ctx.db.deleteFrom('attachments').where('id', '=', id).execute();
  // After the commit: a failed removal leaves an orphan for the sweep, never a row without its file.
  await removeStoredFiles(ctx, [row.storage_name]);
}
