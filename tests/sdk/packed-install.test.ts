import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packPackages, UNPACKED_BUDGET_BYTES } from '../../scripts/release-packages.ts';
import type { Actor, TestHarness } from '../helpers/harness.ts';
import { listeningHarness } from '../helpers/listening.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const fixture = path.join(import.meta.dirname, 'packed-consumer');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const nodeTypes = (createRequire(import.meta.url)('@types/node/package.json') as { version: string }).version;

/** Bytes of every file under `dir`. */
function sizeOf(dir: string): number {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + fs.statSync(path.join(entry.parentPath, entry.name)).size, 0);
}

/**
 * An integrator's fresh project: the tarballs `npm publish` would upload, installed with npm
 * (dependencies from the local npm cache, the registry only for what it lacks), the consumer
 * compiled by `tsc --strict` without skipLibCheck (so the shipped declarations must be clean),
 * then run as ESM and as CommonJS against the real server.
 */
describe('the packed tarballs, installed into a fresh --strict TypeScript project', () => {
  let dir: string;
  let packed: ReturnType<typeof packPackages>;
  let h: TestHarness & { baseUrl: string };
  let actor: Actor;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-consumer-'));
    packed = packPackages(path.join(dir, 'tarballs'));
    fs.writeFileSync(
      path.join(dir, 'package.json'),
      JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
    );
    for (const file of fs.readdirSync(fixture)) fs.copyFileSync(path.join(fixture, file), path.join(dir, file));
    await run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        ...packed.map((p) => p.tarball),
        `@types/node@${nodeTypes}`,
      ],
      { cwd: dir },
    );
    h = await listeningHarness();
    actor = await h.actor();
    await h.project(actor, 'PKG');
  }, 180_000);
  afterAll(async () => {
    await h?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the release check passes: only allowed files, every exports target present, within the size budget', () => {
    expect(packed.map((p) => [p.name, p.problems])).toEqual([
      ['@tasktracker/webhooks', []],
      ['@tasktracker/client', []],
    ]);
    for (const p of packed) {
      expect(p.files.filter((f) => /\.(map|tsbuildinfo)$|^src\//.test(f))).toEqual([]);
      expect(p.files).toContain('LICENSE');
      expect(p.files).toContain('CHANGELOG.md');
    }
  });

  it('installs what was packed, with one copy of the generated types', () => {
    const client = path.join(dir, 'node_modules/@tasktracker/client');
    const webhooks = path.join(dir, 'node_modules/@tasktracker/webhooks');
    expect(sizeOf(client)).toBeLessThanOrEqual(UNPACKED_BUDGET_BYTES.client);
    expect(sizeOf(webhooks)).toBeLessThanOrEqual(UNPACKED_BUDGET_BYTES.webhooks);
    expect(fs.readFileSync(path.join(client, 'dist/esm/generated/openapi.d.ts'), 'utf8')).toMatch(/^export \* from/);
    const installed = JSON.parse(fs.readFileSync(path.join(client, 'package.json'), 'utf8')) as { version: string };
    expect(installed.version).toBe(packed[1]!.version);
    // The repository's own build is not what the consumer resolves.
    expect(fs.realpathSync(client).startsWith(root)).toBe(false);
  });

  it(
    'compiles under tsc --strict (ESM and CommonJS) and runs against the real server',
    { timeout: 120_000 },
    async () => {
      await run(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: dir }).catch((error: { stdout?: string }) => {
        throw new Error(`tsc failed:\n${error.stdout ?? String(error)}`);
      });
      const env = { ...process.env, TT_BASE_URL: h.baseUrl, TT_TOKEN: actor.token, TT_PROJECT: 'PKG' };
      const esm = await run(process.execPath, ['build/esm-consumer.js'], { cwd: dir, env });
      expect(JSON.parse(esm.stdout)).toEqual({
        key: 'PKG-1',
        replayed: 'true',
        sameKey: true,
        titles: ['From the tarball'],
        missing: 'NOT_FOUND',
        verifiedType: 'task.created',
        handled: ['From the tarball'],
      });
      const cjs = await run(process.execPath, ['build/cjs-consumer.cjs'], { cwd: dir, env });
      expect(JSON.parse(cjs.stdout)).toEqual({ organization: actor.org, signature: 'sha256=' });
    },
  );
});
