// What the documentation tests and the documentation site read from the manual's markdown:
// heading anchors as GitHub makes them, links, and the operator guide's runnable blocks.
import { marked, type Token, type Tokens } from 'marked';

/**
 * GitHub's heading anchor: lower case, everything but letters, marks, digits, `_`, `-` and
 * spaces dropped, spaces turned into hyphens, and `-1`, `-2` … appended to repeats.
 * (github-slugger does the same, but declares no supported Node.js versions.)
 */
export function anchorSlugger(): (heading: string) => string {
  const seen = new Map<string, number>();
  return (heading) => {
    const base = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
      .replace(/ /g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    return count === 0 ? base : `${base}-${count}`;
  };
}

/** The text a reader sees in inline tokens (code spans, links and emphasis included). */
export function plainText(tokens: Token[] | undefined): string {
  return (tokens ?? [])
    .map((token) => {
      if ('tokens' in token && token.tokens) return plainText(token.tokens);
      return 'text' in token ? token.text : '';
    })
    .join('');
}

export interface Heading {
  depth: number;
  text: string;
  anchor: string;
}

export function headings(markdown: string): Heading[] {
  const slug = anchorSlugger();
  return marked
    .lexer(markdown)
    .filter((token): token is Tokens.Heading => token.type === 'heading')
    .map((token) => {
      const text = plainText(token.tokens);
      return { depth: token.depth, text, anchor: slug(text) };
    });
}

/** Every link and image target, outside code. */
export function linkTargets(markdown: string): string[] {
  const targets: string[] = [];
  marked.walkTokens(marked.lexer(markdown), (token) => {
    if (token.type === 'link' || token.type === 'image') targets.push(token.href);
  });
  return targets;
}

export interface RunnableBlock {
  /** The programs the block needs besides node and a POSIX shell (`requires=sqlite3,tar`). */
  requires: string[];
  /** The block talks to a running service at localhost:8080 (`server`). */
  server: boolean;
  code: string;
}

/** Fenced blocks opened with ```sh runnable: commands a test runs against a fresh installation. */
export function runnableBlocks(markdown: string): RunnableBlock[] {
  return marked
    .lexer(markdown)
    .filter((token): token is Tokens.Code => token.type === 'code' && /^sh\s+runnable\b/.test(token.lang ?? ''))
    .map((token) => {
      const requires = /\brequires=(\S+)/.exec(token.lang ?? '')?.[1];
      return {
        requires: requires ? requires.split(',') : [],
        server: /\sserver\b/.test(token.lang ?? ''),
        code: token.text,
      };
    });
}
