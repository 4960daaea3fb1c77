import DOMPurify from 'dompurify';
import { marked } from 'marked';

/** Markdown rendered by marked and cleaned by DOMPurify: descriptions and comments are written by anyone. */
export function Markdown({ text }: { text: string }) {
  const html = DOMPurify.sanitize(marked.parse(text, { async: false, gfm: true, breaks: true }));
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
