import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { AppContext } from '../../context.ts';
import { storageNamesInUse } from './attachment.repository.ts';

/**
 * The bytes of attachments, in ATTACHMENTS_DIR. Each file is named by the server (128 random
 * bits in hex), never after anything the client sent, so no file name can escape the directory
 * or collide. Rows are written only after the file is complete, and files are removed only
 * after the row's deletion committed; whatever a crash leaves between the two (a file without
 * a row) is removed by the sweep below.
 */
const STORAGE_NAME = /^[0-9a-f]{32}$/;

/** How old a file without a row must be before the sweep removes it: an upload in progress keeps its file fresh. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

export function attachmentsDir(ctx: AppContext): string {
  return path.resolve(ctx.config.attachments.dir);
}

export function storagePath(ctx: AppContext, storageName: string): string {
  if (!STORAGE_NAME.test(storageName)) throw new Error(`not a storage name: ${storageName}`);
  return path.join(attachmentsDir(ctx), storageName);
}

export interface StoredFile {
  storageName: string;
  size: number;
  sha256: string;
}

/**
 * Streams `source` into a new file, hashing and counting on the way. The file is flushed to disk
 * before this resolves, so a row committed afterwards never points at bytes lost in a crash.
 * If the copy fails the partial file is removed.
 */
export async function storeStream(ctx: AppContext, source: Readable): Promise<StoredFile> {
  await fs.promises.mkdir(attachmentsDir(ctx), { recursive: true });
  const storageName = randomBytes(16).toString('hex');
  const target = storagePath(ctx, storageName);
  const hash = createHash('sha256');
  let size = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  // Opened (created) before the copy starts, so a copy that fails at once cannot race the cleanup
  // below with a file created after it.
  const handle = await fs.promises.open(target, 'wx');
  try {
    await pipeline(source, measure, handle.createWriteStream({ flush: true }));
  } catch (error) {
    await removeStoredFiles(ctx, [storageName]);
    throw error;
  }
  return { storageName, size, sha256: hash.digest('hex') };
}

/**
 * Removes files whose rows are gone (or never committed). A failure is not an error for the
 * caller, whose change already committed: the file is then an orphan and the sweep retries it.
 */
export async function removeStoredFiles(ctx: AppContext, storageNames: string[]): Promise<void> {
  await Promise.all(
    storageNames.map((name) => fs.promises.rm(storagePath(ctx, name), { force: true }).catch(() => undefined)),
  );
}

/**
 * Runs `work`, which goes on with a stored file (recording its row, claiming an idempotency key);
 * if it fails, and so its transaction did not commit, the file is removed before the error goes on.
 */
export async function removedOnFailure<R>(ctx: AppContext, file: StoredFile, work: () => Promise<R>): Promise<R> {
  try {
    return await work();
  } catch (error) {
    await removeStoredFiles(ctx, [file.storageName]);
    throw error;
  }
}

// Read by the task and project deletes before their cascade; the query lives with the others.

/**
 * Worker job: removes files of ATTACHMENTS_DIR that no attachment row names and that have not
 * been written to for ORPHAN_GRACE_MS (left by a crash between a commit and its file removal,
 * or by an upload interrupted before its row was written). Files not named like ours are
 * never touched.
 */
export async function sweepOrphanedAttachmentFiles(ctx: AppContext): Promise<number> {
  let names: string[];
  try {
    names = (await fs.promises.readdir(attachmentsDir(ctx))).filter((name) => STORAGE_NAME.test(name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  const cutoff = ctx.clock.nowMs() - ORPHAN_GRACE_MS;
  let removed = 0;
  const BATCH = 500;
  for (let start = 0; start < names.length; start += BATCH) {
    const batch = names.slice(start, start + BATCH);
    const known = await storageNamesInUse(ctx.db, batch);
    for (const name of batch) {
      if (known.has(name)) continue;
      const stat = await fs.promises.stat(storagePath(ctx, name)).catch(() => null);
      // A file's row is written right after its last byte, so a file idle for the grace period has no row coming.
      if (!stat || stat.mtimeMs >= cutoff) continue;
      await fs.promises.rm(storagePath(ctx, name), { force: true });
      removed += 1;
    }
  }
  return removed;
}
