import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { MIGRATION_NAMES } from './migrate.ts';

/**
 * Backup and restore of a SQLite database (docs/operating/backup.md). Copying the file of a
 * running service loses data: its latest commits may still be in the `-wal` file. SQLite's
 * online backup copies a consistent snapshot while the service keeps writing.
 */

/** Pages per backup step: all of them, so the copy is one read transaction (one snapshot), which in WAL mode never blocks writers. */
const ALL_PAGES = 0x7fffffff;

export interface BackupResult {
  backup: string;
  bytes: number;
  /** The newest migration the copy holds: restore it with this version or a newer one. */
  schema: string | null;
}

/**
 * Copies the database `source` to `destination` while other processes write to it. The copy
 * is written beside the destination, checked, and only then renamed over it, so an existing
 * backup there is replaced only by a complete one.
 */
export async function backupSqlite(source: string, destination: string): Promise<BackupResult> {
  if (!fs.existsSync(source)) throw new Error(`no database at ${source}`);
  const target = path.resolve(destination);
  if (target === path.resolve(source)) throw new Error('the backup must be another file than the database');
  const partial = `${target}.partial`;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.rmSync(partial, { force: true });
  const db = new BetterSqlite3(source, { fileMustExist: true });
  try {
    // The first step only starts the backup; from then on, everything in one step.
    await db.backup(partial, { progress: () => ALL_PAGES });
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
  let inspected: BackupFile;
  try {
    // A single file that needs nothing beside it: the service switches it back to WAL when it opens it.
    const copy = new BetterSqlite3(partial);
    copy.pragma('journal_mode = DELETE');
    copy.close();
    inspected = inspectSqliteFile(partial);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
  fs.renameSync(partial, target);
  return { backup: target, bytes: fs.statSync(target).size, schema: inspected.applied.at(-1) ?? null };
}

export interface BackupFile {
  /** Migrations the file's schema has, in order. */
  applied: string[];
}

/** Opens `file` and checks it is an intact tasktracker database; throws a message saying what is wrong. */
export function inspectSqliteFile(file: string): BackupFile {
  let db: BetterSqlite3.Database;
  try {
    // Not read-only: SQLite cannot open a WAL-mode file read-only unless its -shm file exists.
    db = new BetterSqlite3(file, { fileMustExist: true });
  } catch (error) {
    throw new Error(`cannot open ${file}: ${(error as Error).message}`);
  }
  try {
    let problems: string[];
    try {
      problems = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map((row) => row.integrity_check);
    } catch (error) {
      throw new Error(`${file} is not a SQLite database: ${(error as Error).message}`);
    }
    if (problems.join() !== 'ok') throw new Error(`${file} fails SQLite's integrity check: ${problems.join('; ')}`);
    const hasMigrations = db
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get();
    if (!hasMigrations) throw new Error(`${file} is not a tasktracker database (it has no migrations table)`);
    const applied = (
      db.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>
    ).map((row) => row.name);
    return { applied };
  } finally {
    db.close();
  }
}

export interface RestoreResult {
  restored: string;
  database: string;
  /** Where the database that was replaced now is; null when there was none. */
  previous: string | null;
  /** Migrations this version will apply to the restored copy (`tasktracker migrate`, or `serve` at start). */
  pending: string[];
}

/**
 * Puts the backup `backupFile` in place of the database `target`. Refuses a backup that is not
 * intact or was made by a newer version, and a database another process has open (a running
 * `serve` or `worker`). The replaced database is kept beside it, renamed, never deleted.
 */
export async function restoreSqlite(backupFile: string, target: string, now: Date): Promise<RestoreResult> {
  const source = path.resolve(backupFile);
  const database = path.resolve(target);
  if (source === database) throw new Error('the backup is the database itself');
  const { applied } = inspectSqliteFile(source);
  const unknown = applied.filter((name) => !MIGRATION_NAMES.includes(name));
  if (unknown.length > 0) {
    throw new Error(
      `the backup was made by a newer version of tasktracker (it has ${unknown.join(', ')}, which this version does not know): restore it with that version`,
    );
  }

  fs.mkdirSync(path.dirname(database), { recursive: true });
  const incoming = `${database}.restoring`;
  fs.rmSync(incoming, { force: true });
  const reader = new BetterSqlite3(source, { fileMustExist: true });
  try {
    await reader.backup(incoming, { progress: () => ALL_PAGES });
  } finally {
    reader.close();
  }

  let previous: string | null = null;
  // Held until the files are swapped: a process starting meanwhile waits instead of opening the old file.
  const holder = fs.existsSync(database) ? lockUnused(database, incoming) : null;
  try {
    if (holder) {
      previous = `${database}.replaced-${now.toISOString().replace(/[:.]/g, '-')}`;
      fs.renameSync(database, previous);
    }
    fs.renameSync(incoming, database);
  } finally {
    holder?.close();
  }
  const done = new Set(applied);
  return { restored: source, database, previous, pending: MIGRATION_NAMES.filter((name) => !done.has(name)) };
}

/**
 * Opens `database` exclusively, or throws if another connection has it open. Leaving WAL mode
 * needs the only connection to the file (SQLite answers SQLITE_BUSY otherwise), and it also
 * folds a `-wal` left by a crash into the file, so nothing is left beside it.
 */
function lockUnused(database: string, incoming: string): BetterSqlite3.Database {
  const db = new BetterSqlite3(database, { timeout: 0, fileMustExist: true });
  try {
    db.pragma('journal_mode = DELETE');
    db.exec('BEGIN EXCLUSIVE');
    return db;
  } catch (error) {
    db.close();
    fs.rmSync(incoming, { force: true });
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new Error(
        `the database ${database} is in use: stop every serve and worker process using it, then restore again`,
      );
    }
    throw error;
  }
}
