import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createAppContext } from '../src/context.ts';

const run = promisify(execFile);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-cli-'));
const env = { ...process.env, DATABASE_URL: `sqlite:${path.join(dir, 'cli.db')}` };
const bin = path.resolve('bin/tasktracker.js');

async function cli(...args: string[]) {
  const { stdout } = await run('node', [bin, ...args], { env });
  const lines = stdout.trim().split('\n');
  expect(lines).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

async function cliFails(...args: string[]) {
  return cliFailsWith(env, ...args);
}

async function cliFailsWith(environment: NodeJS.ProcessEnv, ...args: string[]) {
  try {
    await run('node', [bin, ...args], { env: environment });
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return e;
  }
  throw new Error('expected the command to fail');
}

/** The operator CLI (docs/operating/cli.md): one JSON object on stdout, or stderr and a non-zero exit. */
describe('operator CLI', { timeout: 120_000 }, () => {
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('administers organizations, people, service accounts, tokens and memberships end to end', async () => {
    expect(await cli('migrate')).toHaveProperty('applied');
    const org = await cli('org', 'create', '--name', 'Acme', '--slug', 'acme');
    expect(org).toMatchObject({ slug: 'acme', name: 'Acme' });
    const person = await cli(
      'user',
      'create',
      '--org',
      'acme',
      '--email',
      'a@acme.test',
      '--name',
      'Ann',
      '--role',
      'owner',
    );
    expect(person).toMatchObject({ kind: 'human', role: 'owner' });
    const bot = await cli('service-account', 'create', '--org', 'acme', '--name', 'Sync bot', '--role', 'member');
    expect(bot).toMatchObject({ kind: 'service', role: 'member' });
    const token = await cli(
      'token',
      'create',
      '--account',
      String(bot.id),
      '--scopes',
      'projects:write',
      '--expires-in',
      '30',
    );
    expect(token.token).toMatch(/^tt_[A-Za-z0-9_-]{43}$/);
    expect(token.expires_at).toMatch(/Z$/);

    // The token works against an app on the same database, then the account creates a project.
    const database = openDatabase(env.DATABASE_URL);
    const app = await buildApp(createAppContext({ config: loadConfig({}), database }), { logger: false });
    const created = await app.inject({
      method: 'POST',
      url: '/api/v1/projects/',
      headers: { authorization: `Bearer ${token.token}` },
      payload: { name: 'Ops', key: 'OPS' },
    });
    expect(created.statusCode).toBe(201);

    const member = await cli(
      'project',
      'add-member',
      '--project',
      'OPS',
      '--user',
      String(person.id),
      '--role',
      'viewer',
    );
    expect(member).toMatchObject({ project: 'OPS', user: person.id, role: 'viewer' });
    const restricted = await cli(
      'token',
      'create',
      '--account',
      String(bot.id),
      '--scopes',
      'projects:read',
      '--projects',
      'OPS',
    );
    expect(restricted.projects).toEqual(['OPS']);

    expect(await cli('token', 'revoke', '--id', String(token.id))).toMatchObject({ id: token.id });
    const after = await app.inject({
      method: 'GET',
      url: '/api/v1/projects/',
      headers: { authorization: `Bearer ${token.token}` },
    });
    expect(after.statusCode).toBe(401);
    await app.close();
    await database.close();
  });

  it('people: set-password from stdin, invite, list; token list', async () => {
    const person = await cli(
      'user',
      'create',
      '--org',
      'acme',
      '--email',
      'Pat@Acme.test',
      '--name',
      'Pat',
      '--role',
      'member',
    );
    expect(person.email).toBe('pat@acme.test');
    const child = run('node', [bin, 'user', 'set-password', '--id', String(person.id)], { env });
    child.child.stdin!.end('a long enough secret\n');
    expect(JSON.parse((await child).stdout)).toEqual({ id: person.id, password_set: true });

    const invitation = await cli('user', 'invite', '--org', 'acme', '--email', 'new@acme.test', '--role', 'admin');
    expect(invitation).toMatchObject({ email: 'new@acme.test', role: 'admin', invited_by: null, emailed: false });
    expect(invitation.url).toMatch(/^http:\/\/localhost:8080\/invite#token=[A-Za-z0-9_-]{43}$/);

    const users = await cli('user', 'list', '--org', 'acme');
    expect(users.users.map((u: { email: string | null }) => u.email)).toEqual(['a@acme.test', null, 'pat@acme.test']);
    const tokens = await cli('token', 'list', '--org', 'acme');
    // The revoked token is gone; the restricted one was never used.
    expect(tokens.tokens).toHaveLength(1);
    expect(tokens.tokens[0]).toMatchObject({
      account: { name: 'Sync bot' },
      scopes: ['projects:read'],
      projects: ['OPS'],
      last_used_at: null,
    });
    expect(JSON.stringify(tokens)).not.toMatch(/tt_/);

    // The password works for signing in to the web app.
    const database = openDatabase(env.DATABASE_URL);
    const app = await buildApp(createAppContext({ config: loadConfig({}), database }), { logger: false });
    const signedIn = await app.inject({
      method: 'POST',
      url: '/api/console/sign-in/',
      payload: { email: 'pat@acme.test', password: 'a long enough secret' },
    });
    expect(signedIn.statusCode).toBe(200);
    const refused = run('node', [bin, 'user', 'set-password', '--id', String(person.id)], { env });
    refused.child.stdin!.end('short\n');
    await expect(refused).rejects.toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/at least 10 characters/),
    });
    await app.close();
    await database.close();
  });

  it('demo prints a working token and a way to sign in, and can be run again', async () => {
    const first = await cli('demo');
    expect(first).toMatchObject({ organization: 'demo', project: 'DEMO', base_url: 'http://localhost:8080' });
    expect(first.sign_in).toMatchObject({
      url: 'http://localhost:8080/',
      email: 'owner@demo.example',
      password: expect.stringMatching(/^\S{16}$/),
    });
    const second = await cli('demo');
    expect(second.token).not.toBe(first.token);
    expect(second.account.id).toBe(first.account.id);
    {
      const database = openDatabase(env.DATABASE_URL);
      const app = await buildApp(createAppContext({ config: loadConfig({}), database }), { logger: false });
      const signIn = (password: string) =>
        app.inject({
          method: 'POST',
          url: '/api/console/sign-in/',
          payload: { email: 'owner@demo.example', password },
        });
      expect((await signIn(second.sign_in.password)).statusCode).toBe(200);
      expect((await signIn(first.sign_in.password)).statusCode).toBe(401);
      await app.close();
      await database.close();
    }
    // The first run wrote a few demo tasks through the task service; the second added none.
    const database = openDatabase(env.DATABASE_URL);
    const tasks = await database.db.selectFrom('tasks').select(['key', 'parent_id']).orderBy('id').execute();
    expect(tasks.map((t) => t.key)).toEqual(['DEMO-1', 'DEMO-2', 'DEMO-3', 'DEMO-4']);
    const events = await database.db.selectFrom('event_outbox').select('type').execute();
    expect(events.filter((e) => e.type === 'task.created')).toHaveLength(4);
    await database.close();
  });

  it('errors go to stderr with a non-zero exit and nothing on stdout', async () => {
    const dup = await cliFails('org', 'create', '--name', 'Acme', '--slug', 'acme');
    expect(dup.code).not.toBe(0);
    expect(dup.stdout).toBe('');
    expect(dup.stderr).toMatch(/ALREADY_EXISTS/);
    const badScope = await cliFails('token', 'create', '--account', '1', '--scopes', 'everything');
    expect(badScope.stderr).toMatch(/scopes/);
    const badRole = await cliFails(
      'user',
      'create',
      '--org',
      'acme',
      '--email',
      'b@acme.test',
      '--name',
      'B',
      '--role',
      'emperor',
    );
    expect(badRole.stderr).toMatch(/role/);
  });

  it('keeps a project admin like the API does, says what add-member changed, lists tokens and takes expiries in hours', async () => {
    const demo = await cli('demo');
    // The demo project has two admins, its bot and its human owner: leave the bot the last one.
    const { users } = await cli('user', 'list', '--org', 'demo');
    const demoOwner = users.find((u: { email: string | null }) => u.email === demo.sign_in.email);
    expect(
      await cli('project', 'add-member', '--project', 'DEMO', '--user', String(demoOwner.id), '--role', 'member'),
    ).toMatchObject({ action: 'changed', previous_role: 'admin' });
    const owner = await cli(
      'user',
      'create',
      '--org',
      'demo',
      '--email',
      'second@demo.test',
      '--name',
      'Second',
      '--role',
      'member',
    );
    const lastAdmin = await cliFails(
      'project',
      'add-member',
      '--project',
      'DEMO',
      '--user',
      String(demo.account.id),
      '--role',
      'member',
    );
    expect(lastAdmin.stderr).toMatch(/LAST_ADMIN/);
    expect(
      await cli('project', 'add-member', '--project', 'DEMO', '--user', String(owner.id), '--role', 'viewer'),
    ).toMatchObject({ action: 'added', previous_role: null, role: 'viewer' });
    expect(
      await cli('project', 'add-member', '--project', 'DEMO', '--user', String(owner.id), '--role', 'admin'),
    ).toMatchObject({ action: 'changed', previous_role: 'viewer', role: 'admin' });
    expect(
      await cli('project', 'add-member', '--project', 'DEMO', '--user', String(owner.id), '--role', 'admin'),
    ).toMatchObject({ action: 'unchanged', previous_role: 'admin' });
    expect(
      await cli('project', 'add-member', '--project', 'DEMO', '--user', String(demo.account.id), '--role', 'member'),
    ).toMatchObject({ action: 'changed', previous_role: 'admin' });

    const before = Date.now();
    const short = await cli(
      'token',
      'create',
      '--account',
      String(demo.account.id),
      '--scopes',
      'tasks:read',
      '--expires-in',
      '12h',
    );
    const expiresInMs = Date.parse(short.expires_at) - before;
    expect(expiresInMs).toBeGreaterThan(11.9 * 3_600_000);
    expect(expiresInMs).toBeLessThan(12.1 * 3_600_000);
    expect(
      (await cliFails('token', 'create', '--account', '1', '--scopes', 'tasks:read', '--expires-in', '12m')).stderr,
    ).toMatch(/12h, 30d/);

    const { tokens } = await cli('token', 'list', '--org', 'demo');
    const listed = tokens.find((t: { id: number }) => t.id === short.id);
    expect(listed).toEqual({
      id: short.id,
      name: '',
      account: { id: demo.account.id, name: 'Demo Bot' },
      scopes: ['tasks:read'],
      projects: null,
      created_at: expect.any(String),
      expires_at: short.expires_at,
      last_used_at: null,
    });
    expect(JSON.stringify(tokens)).not.toContain(short.token);
  });

  it('refuses a sqlite URL without a path and names an unreachable database without its password', async () => {
    const noPath = await cliFailsWith({ ...env, DATABASE_URL: 'sqlite:' }, 'migrate');
    expect(noPath.stderr).toMatch(/DATABASE_URL "sqlite:" names no file/);
    const badLevel = await cliFailsWith({ ...env, LOG_LEVEL: 'verbose' }, 'migrate');
    expect(badLevel.stderr).toMatch(/LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/);
    const unreachable = await cliFailsWith(
      { ...env, DATABASE_URL: 'postgres://app:s3cret@127.0.0.1:1/tracker' },
      'migrate',
    );
    expect(unreachable.stderr).toMatch(
      /cannot use the database postgres:\/\/app@127\.0\.0\.1:1\/tracker: .*ECONNREFUSED/,
    );
    expect(unreachable.stderr).not.toContain('s3cret');
  });
});
