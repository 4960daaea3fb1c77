// Builds the web app (web/dist) for the server to serve at `/`. With --if-missing it does
// nothing when a build is already there, so `npm start` stays instant after `npm install`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const built = path.join(root, 'web', 'dist', 'index.html');
if (process.argv.includes('--if-missing') && fs.existsSync(built)) process.exit(0);
// Vite is a regular dependency of the web workspace (the build happens at install), so it is
// missing only from an install that skipped workspaces.
const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
if (!fs.existsSync(vite)) {
  console.error('web app: vite is not installed, so the web app cannot be built (run npm install).');
  process.exit(process.argv.includes('--if-missing') ? 0 : 1);
}
const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn'], {
  cwd: path.join(root, 'web'),
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
