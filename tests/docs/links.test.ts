import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorSlugger, headings, linkTargets } from '../../scripts/docs/markdown.ts';
import { manualFiles, read, root } from '../../scripts/docs/manual.ts';

/** Where a relative link leads, or why it leads nowhere. */
function brokenLink(from: string, href: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href)) return null; // http:, https:, mailto: are outside the repository
  const [target, anchor] = href.split('#', 2) as [string, string | undefined];
  const file = target === '' ? from : path.normalize(path.join(path.dirname(from), decodeURIComponent(target)));
  const absolute = path.join(root, file);
  if (file.startsWith('..') || !fs.statSync(absolute, { throwIfNoEntry: false })?.isFile())
    return `${href}: no file ${file}`;
  if (anchor === undefined || anchor === '') return null;
  if (!file.endsWith('.md')) return `${href}: an anchor into a file that is not markdown`;
  const anchors = headings(read(file)).map((heading) => heading.anchor);
  return anchors.includes(anchor) ? null : `${href}: no heading #${anchor} in ${file}`;
}

describe('the manual', () => {
  const files = manualFiles();

  it('has the pages its index and the README promise', () => {
    expect(files).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/README.md']));
    expect(files.filter((file) => file.startsWith('docs/')).length).toBeGreaterThan(30);
  });

  it.each(files)('%s: every relative link and #anchor resolves', (file) => {
    const broken = linkTargets(read(file))
      .map((href) => brokenLink(file, href))
      .filter(Boolean);
    expect(broken).toEqual([]);
  });

  it('every page of docs/ is reachable from the index', () => {
    const reachable = new Set<string>();
    const visit = (file: string) => {
      if (reachable.has(file) || !file.endsWith('.md') || !fs.existsSync(path.join(root, file))) return;
      reachable.add(file);
      for (const href of linkTargets(read(file))) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
        const target = href.split('#')[0]!;
        if (target) visit(path.normalize(path.join(path.dirname(file), decodeURIComponent(target))));
      }
    };
    visit('docs/README.md');
    expect(files.filter((file) => file.startsWith('docs/') && !reachable.has(file))).toEqual([]);
  });

  it('the README stays a front door', () => {
    expect(fs.statSync(path.join(root, 'README.md')).size).toBeLessThan(10 * 1024);
  });
});

describe('heading anchors', () => {
  it('are the ones GitHub makes', () => {
    const slug = anchorSlugger();
    expect(
      [
        'Behind a reverse proxy',
        'TRUST_PROXY',
        'Idempotency-Key on uploads',
        'Comments, attachments, time entries and access',
        "Today's entry",
        'Performance II: every target (2026-11-23)',
        'Behind a reverse proxy',
      ].map(slug),
    ).toEqual([
      'behind-a-reverse-proxy',
      'trust_proxy',
      'idempotency-key-on-uploads',
      'comments-attachments-time-entries-and-access',
      'todays-entry',
      'performance-ii-every-target-2026-11-23',
      'behind-a-reverse-proxy-1',
    ]);
  });
});
