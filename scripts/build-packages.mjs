// Builds packages/webhooks and packages/client to JavaScript with declarations (ESM in
// dist/esm, CommonJS in dist/cjs). Incremental: a package whose sources did not change is not
// rebuilt, so `npm test` and `npm run typecheck` run it first at little cost.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = ['webhooks', 'client'];

export function buildPackages() {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const configs = PACKAGES.flatMap((name) => [`packages/${name}/tsconfig.json`, `packages/${name}/tsconfig.cjs.json`]);
  execFileSync(process.execPath, [tsc, '-b', ...configs], { cwd: root, stdio: 'inherit' });
  for (const name of PACKAGES) writeCommonJsMarker(path.join(root, 'packages', name, 'dist/cjs'));
}

// The CommonJS build lives under a package.json saying so, because the packages themselves are
// "type": "module": Node then loads dist/cjs/*.js (and TypeScript reads their .d.ts) as CommonJS.
export function writeCommonJsMarker(dir) {
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildPackages();
