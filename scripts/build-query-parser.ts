/**
 * Generates the query language's parser from src/modules/query/grammar.peggy into
 * parser.generated.js beside it. The generated file is committed, so running the service needs
 * no parser generator; src/modules/query/parser.test.ts fails when it is out of date.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import peggy from 'peggy';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src/modules/query');
export const GRAMMAR_FILE = path.join(dir, 'grammar.peggy');
export const PARSER_FILE = path.join(dir, 'parser.generated.js');

export function generatedParserSource(): string {
  const source = peggy.generate(fs.readFileSync(GRAMMAR_FILE, 'utf8'), {
    output: 'source',
    format: 'es',
    grammarSource: 'grammar.peggy',
  });
  return `// Generated from grammar.peggy by scripts/build-query-parser.ts: do not edit.\n${source}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) fs.writeFileSync(PARSER_FILE, generatedParserSource());
