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

export function buildPackages({ clean = false } = {}) {
  if (clean)
    for (const name of PACKAGES) fs.rmSync(path.join(root, 'packages', name, 'dist'), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const configs = PACKAGES.flatMap((name) => [`packages/${name}/tsconfig.json`, `packages/${name}/tsconfig.cjs.json`]);
  execFileSync(process.execPath, [tsc, '-b', ...configs], { cwd: root, stdio: 'inherit' });
  for (const name of PACKAGES) {
    const dist = path.join(root, 'packages', name, 'dist');
    writeCommonJsMarker(path.join(dist, 'cjs'));
    shareGeneratedDeclarations(dist);
  }
}

// The CommonJS build lives under a package.json saying so, because the packages themselves are
// "type": "module": Node then loads dist/cjs/*.js (and TypeScript reads their .d.ts) as CommonJS.
function writeCommonJsMarker(dir) {
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
}

// Generated files (src/generated/) hold types only, and the client's are most of its size: the
// CommonJS declarations keep the one real copy and the ES module declarations re-export it (an
// ES module may import CommonJS types; the other way round TypeScript may refuse). Their empty
// runtime modules are never imported and are left out of the published files.
function shareGeneratedDeclarations(dist) {
  const dir = path.join(dist, 'esm/generated');
  if (!fs.existsSync(dir)) return;
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.d.ts'))) {
    const target = `../../cjs/generated/${file.replace(/\.d\.ts$/, '.js')}`;
    fs.writeFileSync(path.join(dir, file), `export * from '${target}';\n`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildPackages({ clean: process.argv.includes('--clean') });
