import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { MIGRATION_NAMES, migrateToLatest } from '../src/db/migrate.ts';
import { freshDatabase, processUrl } from './helpers/database.ts';
import { createHarness, type Actor, type TestHarness } from './helpers/harness.ts';

const run = promisify(execFile);
const bin = path.resolve('bin/tasktracker.js');

type Failure = { code: number; stdout: string; stderr: string };
const failureOf = (pending: Promise<unknown>) =>
  pending.then(
    () => {
      throw new Error('expected the command to fail');
    },
    (error: Failure) => error,
  );

/** What a database file holds, read straight from the file. */
function contents(file: string) {
  const db = new BetterSqlite3(file, { fileMustExist: true });
  try {
    const integrity = (db.pragma('integrity_check') as Array<{ integrity_check: string }>).map(
      (r) => r.integrity_check,
    );
    const keys = (db.prepare('select key from tasks order by id').all() as Array<{ key: string }>).map((r) => r.key);
    const created = (
      db.prepare("select task_key from task_changes where action = 'created' order by id").all() as Array<{
        task_key: string;
      }>
    ).map((r) => r.task_key);
    const counter = (
      db.prepare("select task_counter from projects where key = 'BAK'").get() as { task_counter: number }
    ).task_counter;
    return { integrity, keys, created, counter };
  } finally {
    db.close();
  }
}

/**
 * `tasktracker backup` and `restore` (docs/operating/backup.md): a copy taken while the service
 * writes holds every write acknowledged before it began, and is consistent (every task with its
 * change record); a restore refuses a database in use and a backup of a newer version.
 */
describe.skipIf(process.env.TEST_DATABASE_URL)('backup and restore of a SQLite database', { timeout: 180_000 }, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-backup-'));
  const live = path.join(dir, 'data', 'tasktracker.db');
  const backup = path.join(dir, 'backups', 'tasktracker.db');
  const env = { ...process.env, DATABASE_URL: `sqlite:${live}`, ATTACHMENTS_DIR: path.join(dir, 'data', 'files') };
  let database: DatabaseHandle;
  let h: TestHarness;
  let actor: Actor;
  const acknowledged: string[] = [];
  let acknowledgedBeforeBackup: string[] = [];

  const createTask = async (title: string) => {
    const res = await h.request('POST', '/api/v1/projects/BAK/tasks/', { token: actor.token, body: { title } });
    expect(res.status, res.text).toBe(201);
    acknowledged.push(res.body.data.key);
  };

  beforeAll(async () => {
    database = openDatabase(env.DATABASE_URL);
    await migrateToLatest(database);
    h = await createHarness({ database });
    actor = await h.actor();
    await h.project(actor, 'BAK');
    for (let i = 0; i < 200; i += 1) await createTask(`Before ${i} ${'x'.repeat(400)}`);
  });
  afterAll(async () => {
    await h?.close().catch(() => undefined);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('backs up while the service keeps writing: every write acknowledged before it began is in the copy, which is consistent', async () => {
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i += 1) await createTask(`During ${i}`);
    })();
    acknowledgedBeforeBackup = [...acknowledged];
    const { stdout } = await run('node', [bin, 'backup', backup], { env }).finally(() => (writing = false));
    await writer;
    // Writes went on while the command ran.
    expect(acknowledged.length).toBeGreaterThan(acknowledgedBeforeBackup.length);

    const result = JSON.parse(stdout);
    expect(result).toEqual({
      backup,
      bytes: fs.statSync(backup).size,
      schema: MIGRATION_NAMES.at(-1),
      attachments_dir: env.ATTACHMENTS_DIR,
    });
    const copy = contents(backup);
    expect(copy.integrity).toEqual(['ok']);
    expect(copy.keys).toEqual(expect.arrayContaining(acknowledgedBeforeBackup));
    expect(acknowledged).toEqual(expect.arrayContaining(copy.keys));
    // One snapshot: each task with its change record, and the project's counter where its tasks are.
    expect(copy.created).toEqual(copy.keys);
    expect(copy.counter).toBe(copy.keys.length);
    expect(fs.readdirSync(path.dirname(backup))).toEqual(['tasktracker.db']);
  });

  it('restore refuses while a process has the database open, and changes nothing', async () => {
    const failure = await failureOf(run('node', [bin, 'restore', backup], { env }));
    expect(failure.code).toBe(1);
    expect(failure.stdout).toBe('');
    expect(failure.stderr).toContain(`the database ${live} is in use: stop every serve and worker process using it`);
    expect((await h.request('GET', '/api/v1/projects/BAK/tasks/?limit=1', { token: actor.token })).status).toBe(200);
    expect(fs.readdirSync(path.dirname(live)).filter((name) => name.includes('.replaced-'))).toEqual([]);
    expect(contents(live).keys).toEqual(acknowledged);
  });

  it('restore refuses a backup made by a newer version, and a file that is not a tasktracker database', async () => {
    await h.close();
    const newer = path.join(dir, 'newer.db');
    fs.copyFileSync(backup, newer);
    const db = new BetterSqlite3(newer);
    db.prepare("insert into kysely_migration (name, timestamp) values ('9999_from_the_future', '2030-01-01')").run();
    db.close();
    const refused = await failureOf(run('node', [bin, 'restore', newer], { env }));
    expect(refused.stderr).toMatch(
      /the backup was made by a newer version of tasktracker \(it has 9999_from_the_future, which this version does not know\)/,
    );
    const garbage = path.join(dir, 'notes.txt');
    fs.writeFileSync(garbage, 'not a database at all, but long enough to have a header of sorts\n'.repeat(10));
    expect((await failureOf(run('node', [bin, 'restore', garbage], { env }))).stderr).toMatch(
      /is not a SQLite database/,
    );
    expect(contents(live).keys).toEqual(acknowledged);
  });

  it('restore puts the copy in place, keeps the replaced database beside it, and the CLI and service use it', async () => {
    const { stdout } = await run('node', [bin, 'restore', backup], { env });
    const result = JSON.parse(stdout);
    expect(result).toEqual({
      restored: backup,
      database: live,
      previous: expect.stringMatching(/tasktracker\.db\.replaced-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z$/),
      pending: [],
      attachments_dir: env.ATTACHMENTS_DIR,
    });
    const restored = contents(live);
    expect(restored.integrity).toEqual(['ok']);
    expect(restored.keys).toEqual(contents(backup).keys);
    expect(restored.keys).toEqual(expect.arrayContaining(acknowledgedBeforeBackup));
    expect(contents(result.previous).keys).toEqual(acknowledged);
    expect(fs.existsSync(`${live}-wal`)).toBe(false);

    const users = JSON.parse((await run('node', [bin, 'user', 'list', '--org', actor.org], { env })).stdout);
    expect(users.users).toHaveLength(1);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('backup and restore on PostgreSQL', { timeout: 60_000 }, () => {
  let handle: DatabaseHandle;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    handle = await freshDatabase();
    env = { ...process.env, DATABASE_URL: processUrl(handle), ATTACHMENTS_DIR: '/srv/tasktracker/files' };
  });
  afterAll(() => handle.close());

  it('are refused with the PostgreSQL tools to use and what else to keep', async () => {
    const backup = await failureOf(run('node', [bin, 'backup', '/tmp/never-written.db'], { env }));
    expect(backup.code).toBe(1);
    expect(backup.stdout).toBe('');
    expect(backup.stderr).toContain('backup copies a SQLite database, and DATABASE_URL names PostgreSQL');
    expect(backup.stderr).toContain('pg_dump --format=custom');
    const restore = await failureOf(run('node', [bin, 'restore', '/tmp/tasktracker.dump'], { env }));
    expect(restore.stderr).toContain('pg_restore --no-owner');
    for (const stderr of [backup.stderr, restore.stderr]) {
      expect(stderr).toContain('attachment files (ATTACHMENTS_DIR, /srv/tasktracker/files)');
      expect(stderr).toContain('WEBHOOK_SECRET_KEY');
    }
    expect(fs.existsSync('/tmp/never-written.db')).toBe(false);
  });
});
