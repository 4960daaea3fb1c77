import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS_PAGE, withErrorTable } from '../../scripts/docs/error-catalog-page.ts';
import { ERROR_CODES } from '../../src/http/errors.ts';
import { read, root } from '../../scripts/docs/manual.ts';

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('pages that follow the code', () => {
  it(`${ERRORS_PAGE} lists the error catalog (run \`npm run docs:errors\` after changing src/http/errors.ts)`, () => {
    const page = read(ERRORS_PAGE);
    expect(page).toBe(withErrorTable(page));
    for (const code of Object.keys(ERROR_CODES)) expect(page).toContain(`| \`${code}\` |`);
  });

  it('docs/operating/configuration.md documents every environment variable the service reads', () => {
    const page = read('docs/operating/configuration.md');
    const documented = new Set([...page.matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]!));
    const used = new Set<string>();
    for (const file of sourceFiles('src')) {
      const text = fs.readFileSync(file, 'utf8');
      // env.NAME, env['NAME'], and helpers called as someFrom(env, 'NAME', ...), however formatted.
      const reads = /\benv\.([A-Z][A-Z0-9_]+)|\benv\[\s*['"]([A-Z][A-Z0-9_]+)['"]\s*\]|\(\s*env\s*,\s*['"]([A-Z][A-Z0-9_]+)['"]/g;
      for (const m of text.matchAll(reads)) used.add((m[1] ?? m[2] ?? m[3])!);
    }
    expect(used.size).toBeGreaterThan(25);
    const undocumented = [...used].filter((name) => !documented.has(name)).sort();
    expect(undocumented, 'read in src/ but missing from the tables of configuration.md').toEqual([]);
    const unread = [...documented].filter((name) => !used.has(name)).sort();
    expect(unread, 'in the tables of configuration.md but read nowhere in src/').toEqual([]);
  });
});
