#!/usr/bin/env node
// Runs the compiled service (dist/server, built by `npm install` and `npm start`) while it is
// newer than every source file and package.json (whose version it carries); otherwise the
// TypeScript sources directly through tsx, so an edit takes effect with no build step.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const compiled = path.join(root, 'dist', 'server', 'main.js');

function newestSource(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(file) : fs.statSync(file).mtimeMs);
  }
  return newest;
}

const built = fs.statSync(compiled, { throwIfNoEntry: false });
const newest = Math.max(newestSource(path.join(root, 'src')), fs.statSync(path.join(root, 'package.json')).mtimeMs);
if (built && built.mtimeMs >= newest) {
  await import(pathToFileURL(compiled).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli/main.ts');
}
