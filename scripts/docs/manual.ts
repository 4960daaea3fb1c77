// The markdown files of the manual, as the documentation tests and the documentation site find them.
import fs from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');

function markdownUnder(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** Every markdown file a reader reaches from the README: the front door, the changelog, the manual, the packages' READMEs and changelogs. */
export function manualFiles(): string[] {
  return [
    'README.md',
    'CHANGELOG.md',
    ...markdownUnder('docs'),
    ...fs
      .readdirSync(path.join(root, 'packages'))
      .flatMap((name) => [`packages/${name}/README.md`, `packages/${name}/CHANGELOG.md`]),
  ].filter((file) => fs.existsSync(path.join(root, file)));
}

export const read = (file: string): string => fs.readFileSync(path.join(root, file), 'utf8');
