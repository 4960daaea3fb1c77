// Compiles the service (src/, TypeScript) into JavaScript under dist/server, which
// bin/tasktracker.js runs while it is newer than every source file (docs/performance.md, "Memory":
// without tsx's loader thread and per-module source maps the serving process holds about 60 MB
// less). Dependencies stay in node_modules; a source map sits beside the output for
// `NODE_OPTIONS=--enable-source-maps`.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Bundles `entryPoints` (paths from the repository root) into `outdir`. Dynamic imports become
 * chunks of their own, so a process loads only what it imports.
 */
export async function buildServer(entryPoints = ['src/cli/main.ts'], outdir = path.join(root, 'dist', 'server')) {
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
  });
}

// `node scripts/build-server.mjs [ENTRY OUTDIR]`: the service by default; bench/run.ts builds its servers.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [entry, outdir] = process.argv.slice(2);
  await (entry && outdir ? buildServer([entry], path.resolve(outdir)) : buildServer());
}
