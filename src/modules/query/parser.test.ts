import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generatedParserSource, PARSER_FILE } from '../../../scripts/build-query-parser.ts';

describe('the generated query parser', () => {
  it('is what grammar.peggy generates (run npm run build:query-parser after changing the grammar)', () => {
    expect(fs.readFileSync(PARSER_FILE, 'utf8')).toBe(generatedParserSource());
  });
});
