import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** Every ```ts block of a markdown file. */
function tsBlocks(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!);
}

/**
 * Type-checks snippets as an integrator's own ES modules would be: `tsc --strict` with
 * Node's module resolution, importing the packages as built (their `exports` and declarations).
 */
function diagnostics(snippets: Map<string, string>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => snippets.has(f) || fileExists(f);
  host.readFile = (f) => snippets.get(f) ?? readFile(f);
  host.getSourceFile = (f, language, ...rest) => {
    const code = snippets.get(f);
    return code === undefined ? getSourceFile(f, language, ...rest) : ts.createSourceFile(f, code, language);
  };
  const program = ts.createProgram([...snippets.keys()], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${path.basename(d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

/** The pages that document the packages, each with usage snippets. */
const SDK_PAGES = ['docs/sdk.md', 'packages/client/README.md', 'packages/webhooks/README.md'];

/** Every other page of the manual (and the README) whose ts snippets use a package. */
function otherPagesUsingThePackages(): string[] {
  const pages = [
    'README.md',
    ...fs.readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' }).map((f) => `docs/${f}`),
  ];
  return pages.filter(
    (page) =>
      page.endsWith('.md') && !SDK_PAGES.includes(page) && tsBlocks(page).some((b) => b.includes('@tasktracker/')),
  );
}

describe('SDK usage snippets', () => {
  it('compile under tsc --strict, as an ES module importing the built packages', { timeout: 180_000 }, () => {
    // In memory, beside the tests, so node_modules resolves as it would for a real file.
    const snippets = new Map<string, string>();
    for (const file of [...SDK_PAGES, ...otherPagesUsingThePackages()]) {
      const blocks = tsBlocks(file);
      if (SDK_PAGES.includes(file)) expect(blocks.length, file).toBeGreaterThan(0);
      blocks.forEach((code, i) =>
        snippets.set(path.join(root, 'tests/sdk', `${file.replace(/\W/g, '_')}-${i}.mts`), code),
      );
    }
    expect(diagnostics(snippets)).toEqual([]);
  });
});
