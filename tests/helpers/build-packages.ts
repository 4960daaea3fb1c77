// vitest globalSetup: tests import @tasktracker/client and @tasktracker/webhooks as built, so
// build them first (incremental: nothing happens when they are up to date).
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export default function setup(): void {
  execFileSync(process.execPath, [path.resolve(import.meta.dirname, '../../scripts/build-packages.mjs')], {
    stdio: 'inherit',
  });
}
