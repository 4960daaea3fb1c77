/**
 * Turns free text into a safe full-text query. Only words (letters, digits, underscore) reach
 * the engine, so quotes, `*`, `-`, `NEAR`, parentheses and other syntax can never make the
 * query invalid. Every word must match; the last one also matches as a prefix, so results
 * appear while the user is still typing.
 */
const MAX_TERMS = 16;
const MAX_TERM_LENGTH = 64;

export function searchTerms(text: string): string[] {
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}_]+/gu) ?? [];
  return words.slice(0, MAX_TERMS).map((word) => word.slice(0, MAX_TERM_LENGTH));
}

/** FTS5 MATCH expression: each term a quoted string, the last one with a prefix star. */
export function fts5Query(terms: string[]): string {
  return terms.map((term, i) => `"${term}"${i === terms.length - 1 ? '*' : ''}`).join(' ');
}

/**
 * PostgreSQL to_tsquery expression: terms joined by &, the last one with the :* prefix operator;
 * `weight` restricts every term to lexemes of that weight (A: the title).
 */
export function tsQuery(terms: string[], weight = ''): string {
  return terms
    .map((term, i) => {
      const label = `${i === terms.length - 1 ? '*' : ''}${weight}`;
      return label ? `${term}:${label}` : term;
    })
    .join(' & ');
}
