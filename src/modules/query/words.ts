/**
 * The words of a `~` value: letters and digits, lower-cased, as the full-text indexes split
 * text (quotes, `*`, `-` and other search syntax never reach them). Every word must occur.
 */
const MAX_WORDS = 16;
const MAX_WORD_LENGTH = 64;

export function queryWords(text: string): string[] {
  const words =
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.slice(0, MAX_WORDS).map((word) => word.slice(0, MAX_WORD_LENGTH)))];
}
