import DOMPurify from 'dompurify';
import { marked } from 'marked';

/**
 * What rendered markdown may contain: the elements markdown itself produces, and plain
 * attributes for links, images and table alignment. No `style`, `class` or `id` (text could
 * dress itself as the app: a "session expired" page over the screen), no forms, inputs, SVG,
 * `<details>` or anything else interactive. docs/operating/security.md, "Markdown".
 */
const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'strong',
  'em',
  'del',
  's',
  'code',
  'pre',
  'blockquote',
  'ul',
  'ol',
  'li',
  'a',
  'img',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];
const ALLOWED_ATTR = ['href', 'title', 'src', 'alt', 'align', 'start'];

const purify = DOMPurify();
// Links written by others open nothing with this page's opener and tell the target nothing.
purify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') node.setAttribute('rel', 'noopener noreferrer nofollow');
});

/** A task key as the server reads references (docs/api/tasks.md, "Activity"). */
const TASK_KEY = /(?<![A-Za-z0-9_/-])([A-Z][A-Z0-9]{0,9})-([1-9][0-9]{0,9})(?![A-Za-z0-9_])/g;

/**
 * Turns task keys of the reader's projects into links to the task, in text only: not inside a
 * link or code. Keys of other projects stay text, so nothing hints at what the reader cannot see.
 */
function linkTaskKeys(html: string, projects: ReadonlySet<string>): string {
  const template = document.createElement('template');
  template.innerHTML = html;
  const walker = document.createTreeWalker(template.content, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!(node.parentElement?.closest('a, code, pre') ?? null)) texts.push(node as Text);
  }
  for (const node of texts) {
    const value = node.data;
    const parts: Node[] = [];
    let from = 0;
    for (const match of value.matchAll(TASK_KEY)) {
      if (!projects.has(match[1]!)) continue;
      parts.push(document.createTextNode(value.slice(from, match.index)));
      const link = document.createElement('a');
      link.href = `/t/${match[0]}`;
      link.textContent = match[0];
      parts.push(link);
      from = match.index + match[0].length;
    }
    if (!parts.length) continue;
    parts.push(document.createTextNode(value.slice(from)));
    node.replaceWith(...parts);
  }
  return template.innerHTML;
}

/** Markdown as HTML holding only the allowed elements and attributes; task keys of `projects` link to their task. */
export function markdownHtml(text: string, projects?: ReadonlySet<string>): string {
  const html = marked.parse(text, { async: false, gfm: true, breaks: true });
  const clean = purify.sanitize(html, { ALLOWED_TAGS, ALLOWED_ATTR, ALLOW_DATA_ATTR: false, ALLOW_ARIA_ATTR: false });
  return projects?.size ? linkTaskKeys(clean, projects) : clean;
}

/**
 * Markdown rendered by marked and cleaned to the allow-list: descriptions and comments are
 * written by anyone. `projects`: the keys of the reader's projects, whose task keys become links.
 */
export function Markdown({ text, projects }: { text: string; projects?: ReadonlySet<string> }) {
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: markdownHtml(text, projects) }} />;
}
