import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { runnableBlocks } from '../../scripts/docs/markdown.ts';
import { manualFiles, read, root } from '../../scripts/docs/manual.ts';

const run = promisify(execFile);
const bin = path.join(root, 'bin/tasktracker.js');
const pages = manualFiles().filter((file) => file.startsWith('docs/operating/'));
const dirs: string[] = [];
const servers: ChildProcess[] = [];

function installed(program: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

interface Installation {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/**
 * An installation as an operator has one: the defaults of every variable (a SQLite database and
 * attachment files under ./data of the working directory), migrated, with one attachment file.
 * Variables of the test's own environment that would point elsewhere are left out.
 */
async function installation(): Promise<Installation> {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-operator-'));
  dirs.push(cwd);
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) =>
        !/^(DATABASE_URL|TEST_DATABASE_URL|ATTACHMENTS_DIR|PORT|HOST|PUBLIC_BASE_URL|REDIS_URL|SMTP_URL)$/.test(name),
    ),
  );
  env.LOG_LEVEL = 'warn';
  await run('node', [bin, 'migrate'], { cwd, env });
  fs.mkdirSync(path.join(cwd, 'data/attachments'), { recursive: true });
  fs.writeFileSync(path.join(cwd, 'data/attachments/0f3c9a'), 'an uploaded file\n');
  return { cwd, env };
}

/** `tasktracker serve` on the installation, on a free loopback port; resolves once /healthz answers. */
async function serve({ cwd, env }: Installation): Promise<number> {
  const port = await freePort();
  const server = spawn('node', [bin, 'serve'], {
    cwd,
    env: { ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  servers.push(server);
  let stderr = '';
  server.stderr!.on('data', (chunk) => (stderr += chunk));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`serve exited: ${stderr}`);
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return port;
    if (Date.now() > deadline) throw new Error(`serve did not start: ${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

afterAll(async () => {
  await Promise.all(
    servers
      .filter((server) => server.exitCode === null && server.signalCode === null)
      .map((server) => {
        const exited = new Promise((resolve) => server.once('exit', resolve));
        server.kill('SIGTERM');
        return exited;
      }),
  );
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Every ```sh runnable block of the operator guide, run as written, in order, page by page, each
 * page against an installation of its own. Two rewrites: `npx tasktracker` runs this checkout's
 * bin (npx would otherwise ask the registry), and a block marked `server` talks to a
 * `tasktracker serve` of the installation on a free port instead of localhost:8080. Blocks
 * needing a program this machine lacks (`requires=`) are reported as skipped, never passed.
 */
describe('the operator guide', { timeout: 180_000 }, () => {
  it('marks commands runnable', () => {
    const blocks = pages.flatMap((page) => runnableBlocks(read(page)));
    expect(blocks.length).toBeGreaterThanOrEqual(4);
    expect(blocks.some((block) => block.server)).toBe(true);
  });

  for (const page of pages) {
    const blocks = runnableBlocks(read(page));
    if (blocks.length === 0) continue;
    const missing = [...new Set(blocks.flatMap((block) => block.requires))].filter((program) => !installed(program));
    const name = `${page}: every runnable command succeeds${missing.length ? ` (needs ${missing.join(', ')})` : ''}`;
    it.skipIf(missing.length > 0)(name, async () => {
      const setup = await installation();
      let port: number | undefined;
      for (const block of blocks) {
        if (block.server) port ??= await serve(setup);
        let script = block.code.replaceAll('npx tasktracker', `node ${JSON.stringify(bin)}`);
        if (block.server) script = script.replaceAll('localhost:8080', `127.0.0.1:${port}`);
        const result = await run('bash', ['-euo', 'pipefail', '-c', script], setup).catch(
          (error: { code?: number; stderr?: string; stdout?: string }) => error,
        );
        expect(result, `${page}\n${block.code}\n${'stderr' in result ? result.stderr : ''}`).not.toHaveProperty('code');
      }
    });
  }
});
