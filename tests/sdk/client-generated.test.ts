import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

it('packages/client/src/generated/openapi.ts is what `npm run generate` makes from docs/openapi.json', () => {
  const cli = path.join(
    path.dirname(createRequire(import.meta.url).resolve('openapi-typescript/package.json')),
    'bin/cli.js',
  );
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'client-types-')), 'openapi.ts');
  execFileSync(process.execPath, [cli, path.join(root, 'docs/openapi.json'), '--output', out], { stdio: 'pipe' });
  const committed = fs.readFileSync(path.join(root, 'packages/client/src/generated/openapi.ts'), 'utf8');
  // On a difference: `npm run generate -w @tasktracker/client` (or `npm run openapi`, which runs it too).
  expect(committed === fs.readFileSync(out, 'utf8')).toBe(true);
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
});
