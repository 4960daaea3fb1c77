import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
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

function installed(program: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * An installation as an operator has one: the defaults of every variable (a SQLite database and
 * attachment files under ./data of the working directory), migrated, with one attachment file.
 * Variables of the test's own environment that would point elsewhere are left out.
 */
async function installation(): Promise<{ cwd: string; env: NodeJS.ProcessEnv }> {
  const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-operator-'));
  dirs.push(cwd);
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => !/^(DATABASE_URL|TEST_DATABASE_URL|ATTACHMENTS_DIR|PORT|HOST|PUBLIC_BASE_URL|REDIS_URL|SMTP_URL)$/.test(name),
    ),
  );
  env.LOG_LEVEL = 'warn';
  await run('node', [bin, 'migrate'], { cwd, env });
  fs.mkdirSync(path.join(cwd, 'data/attachments'), { recursive: true });
  fs.writeFileSync(path.join(cwd, 'data/attachments/0f3c9a'), 'an uploaded file\n');
  return { cwd, env };
}

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Every ```sh runnable block of the operator guide, run as written, in order, page by page, each
 * page against an installation of its own. One rewrite: `npx tasktracker` runs this checkout's
 * bin (npx would otherwise ask the registry). Blocks needing a program this machine lacks
 * (`requires=`) are reported as skipped, never passed silently.
 */
describe('the operator guide', { timeout: 120_000 }, () => {
  it('marks commands runnable', () => {
    expect(pages.flatMap((page) => runnableBlocks(read(page))).length).toBeGreaterThanOrEqual(3);
  });

  for (const page of pages) {
    const blocks = runnableBlocks(read(page));
    if (blocks.length === 0) continue;
    const missing = [...new Set(blocks.flatMap((block) => block.requires))].filter((program) => !installed(program));
    it.skipIf(missing.length > 0)(`${page}: every runnable command succeeds${missing.length ? ` (needs ${missing.join(', ')})` : ''}`, async () => {
      const { cwd, env } = await installation();
      for (const block of blocks) {
        const script = block.code.replaceAll('npx tasktracker', `node ${JSON.stringify(bin)}`);
        const result = await run('bash', ['-euo', 'pipefail', '-c', script], { cwd, env }).catch(
          (error: { code?: number; stderr?: string; stdout?: string }) => error,
        );
        expect(result, `${page}\n${block.code}\n${'stderr' in result ? result.stderr : ''}`).not.toHaveProperty('code');
      }
    });
  }
});
