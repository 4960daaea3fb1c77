import { type ChildProcess, execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/database.ts';
import { freshDatabase, processUrl } from './helpers/database.ts';

const run = promisify(execFile);
const root = path.resolve('.');
const bin = path.join(root, 'bin/tasktracker.js');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const guide = fs.readFileSync(path.join(root, 'docs/getting-started.md'), 'utf8');

/** The shell commands of a markdown section, continuation lines joined, comments dropped. */
function sectionCommands(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((block) => block[1]!.replace(/\\\n\s*/g, '').split('\n'))
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter((line) => line && !line.startsWith('#'));
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The tour of docs/getting-started.md, run as written against a real `tasktracker serve` from a directory holding
 * the README (as a fresh clone does). Three rewrites only: the server's port (another test may
 * hold 8080), `npx tasktracker` runs this checkout's bin (npx would otherwise ask the registry),
 * and `export TOKEN=tt_...` takes the token the demo command printed.
 */
describe('the getting-started tour', { timeout: 240_000 }, () => {
  let database: DatabaseHandle;
  let server: ChildProcess;
  let dir: string;
  let port: number;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    database = await freshDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-tour-'));
    fs.copyFileSync(path.join(root, 'README.md'), path.join(dir, 'README.md'));
    port = await freePort();
    env = {
      ...process.env,
      DATABASE_URL: processUrl(database),
      PORT: String(port),
      HOST: '127.0.0.1',
      ATTACHMENTS_DIR: path.join(dir, 'files'),
      LOG_LEVEL: 'warn',
    };
    server = spawn('node', [bin, 'serve'], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    server.stderr!.on('data', (chunk) => (stderr += chunk));
    const deadline = Date.now() + 120_000;
    for (;;) {
      if (server.exitCode !== null) throw new Error(`serve exited: ${stderr}`);
      const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline) throw new Error(`serve did not start: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    }
    await database?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("the README's short tour is a part of the full one, so running the full one runs it", () => {
    const full = sectionCommands(guide, '## A two-minute tour');
    const short = sectionCommands(readme, '## A short tour');
    expect(short.length).toBeGreaterThan(2);
    for (const command of short) expect(full, command).toContain(command);
  });

  it('every command succeeds and the downloaded attachment is the uploaded README', async () => {
    const commands = sectionCommands(guide, '## A two-minute tour');
    expect(commands[0]).toBe('npx tasktracker demo');
    expect(commands[1]).toBe('export TOKEN=tt_...');
    expect(commands.length).toBeGreaterThan(10);

    const demo = JSON.parse((await run('node', [bin, 'demo'], { env, cwd: dir })).stdout);
    expect(demo.base_url).toBe(`http://127.0.0.1:${port}`);
    const shellEnv = { ...env, TOKEN: demo.token };

    for (const command of commands.slice(2)) {
      const local = command.replaceAll('localhost:8080', `localhost:${port}`);
      const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', local], { env: shellEnv, cwd: dir });
      if (stdout === '') continue;
      const body = JSON.parse(stdout);
      expect(body.success, `${command}\n${stdout}`).toBe(true);
    }
    expect(fs.readFileSync(path.join(dir, 'README-copy.md'), 'utf8')).toBe(readme);
    const task = await fetch(`http://127.0.0.1:${port}/api/v1/tasks/DEMO-5/`, {
      headers: { authorization: `Bearer ${demo.token}` },
    }).then((r) => r.json());
    expect(task.data).toMatchObject({ title: 'Try the API', status: 'In Progress', time_spent_minutes: 30 });
  });
});
