import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_VERSION } from '../../src/version.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { read, root } from '../../scripts/docs/manual.ts';

const run = promisify(execFile);
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** The version headings of CHANGELOG.md, newest first: `## [Unreleased]`, then `## [1.2.3] - 2026-11-27`. */
function releases(): Array<{ version: string; date: string | undefined }> {
  return [...read('CHANGELOG.md').matchAll(/^## \[([^\]]+)\](?: - (\S+))?$/gm)].map((m) => ({
    version: m[1]!,
    date: m[2],
  }));
}

describe('the service version', () => {
  let h: TestHarness;
  beforeAll(async () => {
    h = await createHarness({ config: { metricsPublic: true } });
  });
  afterAll(() => h.close());

  it('is package.json version, the newest release of CHANGELOG.md, after its Unreleased section', () => {
    expect(SERVICE_VERSION).toMatch(SEMVER);
    const [unreleased, newest, ...older] = releases();
    expect(unreleased).toEqual({ version: 'Unreleased', date: undefined });
    expect(newest).toMatchObject({ version: SERVICE_VERSION, date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) });
    for (const release of [newest!, ...older]) expect(release.version).toMatch(SEMVER);
  });

  it('is served by /healthz, the OpenAPI document and /metrics, and printed by the CLI', async () => {
    expect((await h.request('GET', '/healthz')).body).toMatchObject({ version: SERVICE_VERSION });
    expect((await h.request('GET', '/api/v1/openapi.json')).body.info.version).toBe(SERVICE_VERSION);
    expect(JSON.parse(read('docs/openapi.json')).info.version).toBe(SERVICE_VERSION);
    expect((await h.request('GET', '/metrics')).text).toContain(`tasktracker_build_info{version="${SERVICE_VERSION}"} 1`);
    const { stdout } = await run('node', [path.join(root, 'bin/tasktracker.js'), '--version']);
    expect(stdout.trim()).toBe(SERVICE_VERSION);
  });
});
