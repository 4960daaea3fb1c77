/**
 * Seeded generators for benchmark data, so every run seeds the same workspace: titles from a
 * 60-word product vocabulary, descriptions mostly from a 5,000-word vocabulary with Zipf
 * frequencies, like natural text.
 */
let seed = 42;
export const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
export const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;

const WORDS = `login billing invoice deploy server cache queue report export import search index page button form
  layout theme mobile desktop api token webhook retry timeout database migration backup restore audit review
  release sprint milestone label customer ticket refund payment checkout cart shipping email notification
  password session cookie header footer sidebar modal dropdown upload download image video chart graph`.split(/\s+/);
const VOCABULARY = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}x`);
const ZIPF = VOCABULARY.map((_, i) => 1 / (i + 1));
const ZIPF_TOTAL = ZIPF.reduce((a, b) => a + b, 0);

function zipfWord(): string {
  let r = random() * ZIPF_TOTAL;
  for (let i = 0; i < ZIPF.length; i++) if ((r -= ZIPF[i]!) <= 0) return VOCABULARY[i]!;
  return VOCABULARY.at(-1)!;
}

export const taskTitle = () => `${pick(WORDS)} ${pick(WORDS)} ${pick(WORDS)} ${zipfWord()}`;
export const taskDescription = () =>
  [...Array.from({ length: 27 }, zipfWord), pick(WORDS), pick(WORDS), pick(WORDS)].join(' ');
