import type { Insertable } from 'kysely';
import type { Executor } from '../../db/database.ts';
import type { AttachmentsTable } from '../../db/schema.ts';
import type { Principal } from '../../identity/principal.ts';
import { recordsOfTaskQueries } from '../tasks/records-of-task.repository.ts';
import { visibleTasks } from '../tasks/task.repository.ts';

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

/** Attachments with their task key and uploader, for pages and single reads. */
function selectAttachments(db: Executor) {
  return db
    .selectFrom('attachments as a')
    .innerJoin('tasks as t', 't.id', 'a.task_id')
    .leftJoin('users as u', 'u.id', 'a.uploaded_by')
    .select(COLUMNS);
}

/** All of it, with the caller's role in the task's project: whether it may delete the attachment. */
function visibleAttachments(db: Executor, principal: Principal) {
  return visibleTasks(db, principal)
    .innerJoin('attachments as a', 'a.task_id', 't.id')
    .leftJoin('users as u', 'u.id', 'a.uploaded_by')
    .select([...COLUMNS, 'p.id as project_id', 'pm.role']);
}

/** The orderings of a page of a task's records. */
const PAGING = {
  idColumn: 'a.id',
  orderable: { created_at: 'a.created_at', filename: 'a.filename', size: 'a.size' },
  defaultOrdering: 'created_at',
};

export const {
  ofTask: attachmentsOfTask,
  find: findAttachment,
  findVisible: findVisibleAttachment,
} = recordsOfTaskQueries('a', selectAttachments, visibleAttachments, PAGING);

export type AttachmentRow = NonNullable<Awaited<ReturnType<typeof findAttachment>>>;

export type AttachmentValues = Omit<Insertable<AttachmentsTable>, 'id'>;

export async function insertAttachment(db: Executor, values: AttachmentValues): Promise<number> {
  const row = await db.insertInto('attachments').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteAttachment(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('attachments').where('id', '=', id).execute();
}

/** Storage names of the attachments of one task, or of every task of a project (read before a cascading delete). */
export async function storageNamesOf(db: Executor, of: { taskId: number } | { projectId: number }): Promise<string[]> {
  let query = db.selectFrom('attachments as a').select('a.storage_name');
  query =
    'taskId' in of
      ? query.where('a.task_id', '=', of.taskId)
      : query.where('a.task_id', 'in', (eb) =>
          eb.selectFrom('tasks').select('id').where('project_id', '=', of.projectId),
        );
  return (await query.execute()).map((r) => r.storage_name);
}

/** Which of `storageNames` an attachment row names. */
export async function storageNamesInUse(db: Executor, storageNames: string[]): Promise<Set<string>> {
  if (storageNames.length === 0) return new Set();
  const rows = await db
    .selectFrom('attachments')
    .select('storage_name')
    .where('storage_name', 'in', storageNames)
    .execute();
  return new Set(rows.map((r) => r.storage_name));
}
