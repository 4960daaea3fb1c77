import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { EVENT_TYPES_FILE, EVENTS_FILE, writeWebhookEvents } from '../../scripts/write-webhook-events.ts';

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

it('packages/webhooks/src/generated/ is what `npm run generate` makes from the webhooks of docs/openapi.json', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'webhook-events-'));
  writeWebhookEvents(path.join(root, 'docs/openapi.json'), path.join(dir, 'events.ts'), path.join(dir, 'types.ts'));
  // On a difference: `npm run generate -w @tasktracker/webhooks` (or `npm run openapi`, which runs it too).
  expect(fs.readFileSync(EVENTS_FILE, 'utf8') === fs.readFileSync(path.join(dir, 'events.ts'), 'utf8')).toBe(true);
  expect(fs.readFileSync(EVENT_TYPES_FILE, 'utf8')).toBe(fs.readFileSync(path.join(dir, 'types.ts'), 'utf8'));
  fs.rmSync(dir, { recursive: true, force: true });
});
