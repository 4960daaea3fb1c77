import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/database.ts';
import { MIGRATION_NAMES } from '../src/db/migrate.ts';
import { freshDatabase, processUrl } from './helpers/database.ts';

const run = promisify(execFile);
const bin = path.resolve('bin/tasktracker.js');
const LAST = MIGRATION_NAMES.at(-1)!;
const BEFORE_LAST = MIGRATION_NAMES.at(-2)!;

/**
 * `migrate` applies what is pending and says so; `migrate --status` only reports; every other
 * admin command refuses a schema that is not this version's (docs/operating/cli.md).
 */
describe('operator CLI and the schema version', { timeout: 120_000 }, () => {
  let handle: DatabaseHandle;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    handle = await freshDatabase({ migratedTo: BEFORE_LAST });
    env = { ...process.env, DATABASE_URL: processUrl(handle) };
  });
  afterAll(() => handle.close());

  async function cli(...args: string[]) {
    const { stdout } = await run('node', [bin, ...args], { env });
    return JSON.parse(stdout);
  }

  async function refused(...args: string[]) {
    const failure = await run('node', [bin, ...args], { env }).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure, `${args.join(' ')} should have failed`).not.toBeNull();
    expect(failure!.code).toBe(1);
    expect(failure!.stdout).toBe('');
    return failure!.stderr;
  }

  const appliedNames = async () =>
    (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(handle.db)).rows.map(
      (row) => row.name,
    );

  it('migrate --status lists applied and pending migrations and applies nothing', async () => {
    const status = await cli('migrate', '--status');
    expect(status.pending).toEqual([LAST]);
    expect(status.applied).toEqual(MIGRATION_NAMES.slice(0, -1));
    expect(status.applied.at(-1)).toBe(BEFORE_LAST);
    expect(status).not.toHaveProperty('unknown');
    expect(await appliedNames()).not.toContain(LAST);
  });

  it('admin commands refuse an outdated schema, naming what is pending and the command to run', async () => {
    for (const args of [
      ['org', 'create', '--name', 'Acme', '--slug', 'acme'],
      ['user', 'list', '--org', 'acme'],
      ['demo'],
    ]) {
      const stderr = await refused(...args);
      expect(stderr).toContain(`the database schema is out of date: 1 migration pending (${LAST})`);
      expect(stderr).toContain('run `tasktracker migrate` first');
    }
    expect(await appliedNames()).not.toContain(LAST);
    const organizations = await handle.db.selectFrom('organizations').select('id').execute();
    expect(organizations).toEqual([]);
  });

  it('migrate applies the pending migration and says so; then the commands work and there is nothing more to do', async () => {
    expect(await cli('migrate')).toEqual({ applied: [LAST] });
    expect(await cli('migrate')).toEqual({ applied: [] });
    const status = await cli('migrate', '--status');
    expect(status.pending).toEqual([]);
    expect(status.applied).toEqual(MIGRATION_NAMES);
    expect(await cli('org', 'create', '--name', 'Acme', '--slug', 'acme')).toMatchObject({ slug: 'acme' });
  });

  it('a database migrated by a newer version is refused by every command, migrate included', async () => {
    await sql`insert into kysely_migration (name, timestamp) values ('9999_from_the_future', '2030-01-01T00:00:00.000Z')`.execute(
      handle.db,
    );
    try {
      expect(await cli('migrate', '--status')).toMatchObject({ pending: [], unknown: ['9999_from_the_future'] });
      for (const args of [['migrate'], ['user', 'list', '--org', 'acme']]) {
        expect(await refused(...args)).toMatch(
          /migrated by a newer version of tasktracker \(it has 9999_from_the_future, which this version does not know\)/,
        );
      }
    } finally {
      await sql`delete from kysely_migration where name = '9999_from_the_future'`.execute(handle.db);
    }
  });

  it.skipIf(process.env.TEST_DATABASE_URL)(
    'a database with no schema yet is refused until it is migrated',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-empty-'));
      try {
        const empty = { ...process.env, DATABASE_URL: `sqlite:${path.join(dir, 'empty.db')}` };
        const failure = await run('node', [bin, 'org', 'create', '--name', 'A', '--slug', 'a'], { env: empty }).catch(
          (error: { code: number; stderr: string }) => error,
        );
        expect(failure).toMatchObject({ code: 1 });
        expect((failure as { stderr: string }).stderr).toMatch(
          /the database has no schema yet; run `tasktracker migrate` first/,
        );
        const { stdout } = await run('node', [bin, 'migrate'], { env: empty });
        expect(JSON.parse(stdout)).toEqual({ applied: MIGRATION_NAMES });
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
