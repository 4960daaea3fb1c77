/**
 * Writes the SQL of every repository function, for both dialects, to `sql/<dialect>/`, so a
 * change to a query shows in review as a diff of these files. `--check` writes nothing and
 * fails when they differ from the code (tests/db/sql-snapshots.test.ts runs it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Dialect } from '../src/db/database.ts';
import { recordCall, type RepositorySnapshots } from './sql-snapshots/record.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const callsDir = path.join(root, 'scripts/sql-snapshots');
const DIALECTS: Dialect[] = ['sqlite', 'postgres'];

async function loadSnapshots(): Promise<RepositorySnapshots[]> {
  const files = fs
    .readdirSync(callsDir)
    .filter((f) => f.endsWith('.ts') && f !== 'record.ts' && f !== 'samples.ts')
    .sort();
  return Promise.all(files.map(async (f) => (await import(path.join(callsDir, f))).default as RepositorySnapshots));
}

/** Every snapshot file's path and wanted content. */
export async function renderSnapshots(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const repository of await loadSnapshots()) {
    for (const dialect of DIALECTS) {
      let text = `-- ${repository.file}, ${dialect}. Written by scripts/write-sql-snapshots.ts; do not edit.\n`;
      for (const [name, call] of Object.entries(repository.calls))
        text += `\n-- ${name}\n${await recordCall(dialect, call)}`;
      out.set(path.join('sql', dialect, repository.file.replace(/\.ts$/, '.sql')), text);
    }
  }
  return out;
}

/** Paths whose committed content differs from the code's, or that should not exist. */
export async function driftedSnapshots(): Promise<string[]> {
  const wanted = await renderSnapshots();
  const drifted = [...wanted]
    .filter(
      ([file, text]) =>
        !fs.existsSync(path.join(root, file)) || fs.readFileSync(path.join(root, file), 'utf8') !== text,
    )
    .map(([file]) => file);
  for (const dialect of DIALECTS) {
    const dir = path.join(root, 'sql', dialect);
    const committed = fs.existsSync(dir)
      ? fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.sql'))
      : [];
    for (const file of committed)
      if (!wanted.has(path.join('sql', dialect, file))) drifted.push(path.join('sql', dialect, file));
  }
  return drifted;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--check')) {
    const drifted = await driftedSnapshots();
    if (drifted.length) {
      console.error(
        `SQL snapshots differ from the code: ${drifted.join(', ')}\nRun npm run sql:snapshots and review the diff.`,
      );
      process.exit(1);
    }
  } else {
    for (const dialect of DIALECTS) fs.rmSync(path.join(root, 'sql', dialect), { recursive: true, force: true });
    for (const [file, text] of await renderSnapshots()) {
      fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      fs.writeFileSync(path.join(root, file), text);
    }
  }
}
