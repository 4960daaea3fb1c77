// The table of docs/api/errors.md, rendered from the error catalog (src/http/errors.ts) so the
// page cannot drift from what the service answers. `npm run docs:errors` rewrites it; a test
// fails when the committed page differs.
import { ERROR_CODES } from '../../src/http/errors.ts';

export const ERRORS_PAGE = 'docs/api/errors.md';
export const BEGIN = '<!-- BEGIN generated from src/http/errors.ts by `npm run docs:errors`; edit the catalog, not this table -->';
export const END = '<!-- END generated -->';

/** A description is markdown already; only a pipe would break the table. */
const cell = (text: string): string => text.replace(/\|/g, '\\|');

export function errorTable(): string {
  const rows = Object.entries(ERROR_CODES).map(([code, entry]) => {
    const where = 'consoleOnly' in entry && entry.consoleOnly ? ' Console API only.' : '';
    return `| \`${code}\` | ${entry.status} | ${cell(entry.description)}${where} |`;
  });
  return ['| Code | HTTP | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The page with its generated region replaced by the catalog's table. */
export function withErrorTable(page: string): string {
  const begin = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (begin < 0 || end < begin) throw new Error(`${ERRORS_PAGE} lacks the generated region (${BEGIN} … ${END})`);
  return `${page.slice(0, begin + BEGIN.length)}\n\n${errorTable()}\n\n${page.slice(end)}`;
}
