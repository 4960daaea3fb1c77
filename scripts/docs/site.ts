// The documentation site: the manual's markdown rendered to static HTML at build time, served by
// the service under /docs/ beside the API reference (src/http/docs-site.ts). Pages need no
// script and no network: one stylesheet, the pages, and the images they show.
import fs from 'node:fs';
import path from 'node:path';
import { Marked, type Token, type Tokens } from 'marked';
import { SERVICE_VERSION } from '../../src/version.ts';
import { anchorSlugger, plainText } from './markdown.ts';
import { manualFiles, read, root } from './manual.ts';

/** Where the API reference (Swagger UI) is served, beside the manual. */
export const REFERENCE_URL = '/docs/reference/';

/** The page a source file becomes; pages outside docs/ get short names of their own. */
export function pageUrl(source: string): string {
  if (source === 'docs/README.md') return '/docs/';
  if (source === 'CHANGELOG.md') return '/docs/changelog/';
  if (source === 'bench/RESULTS.md') return '/docs/benchmarks/';
  const pkg = /^packages\/([^/]+)\/(README|CHANGELOG)\.md$/.exec(source);
  if (pkg) return pkg[2] === 'README' ? `/docs/packages/${pkg[1]}/` : `/docs/packages/${pkg[1]}/changelog/`;
  if (source.startsWith('docs/') && source.endsWith('.md')) return `/docs/${source.slice(5, -3)}/`;
  throw new Error(`${source} is not a page of the documentation site`);
}

/** The sources of the site: the manual (not the README, the repository's front door) and the benchmark results. */
export function siteSources(): string[] {
  const sources = [...manualFiles().filter((file) => file !== 'README.md'), 'bench/RESULTS.md'];
  const urls = new Map<string, string>();
  for (const source of sources) {
    const url = pageUrl(source);
    if (url === REFERENCE_URL || urls.has(url))
      throw new Error(`${source} would be served at ${url}, taken by ${urls.get(url) ?? 'the API reference'}`);
    urls.set(url, source);
  }
  return sources;
}

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * What a link of `source` becomes on the site: another page, an asset copied beside the pages
 * (files under docs/), or, outside the repository, itself. A link to a file of the repository
 * the site does not hold is an error: it would be broken on the site.
 */
function siteHref(source: string, href: string, pages: Set<string>, assets: Set<string>): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('#')) return href;
  const hash = href.indexOf('#');
  const target = hash < 0 ? href : href.slice(0, hash);
  const anchor = hash < 0 ? '' : href.slice(hash);
  const file = path.posix.normalize(path.posix.join(path.posix.dirname(source), decodeURIComponent(target)));
  if (pages.has(file)) return pageUrl(file) + anchor;
  if (file.startsWith('docs/') && !file.endsWith('.md') && fs.statSync(path.join(root, file), { throwIfNoEntry: false })?.isFile()) {
    assets.add(file);
    return `/${file}`;
  }
  throw new Error(`${source}: the link ${href} leads to ${file}, which the documentation site does not hold`);
}

interface NavGroup {
  title: string;
  links: Array<{ text: string; url: string }>;
}

/** The sidebar: docs/README.md's sections and, in each, the first link of every item. */
function navigation(pages: Set<string>): NavGroup[] {
  const groups: NavGroup[] = [];
  for (const token of new Marked().lexer(read('docs/README.md'))) {
    if (token.type === 'heading' && token.depth === 2) groups.push({ title: plainText(token.tokens), links: [] });
    if (token.type !== 'list' || groups.length === 0) continue;
    for (const item of (token as Tokens.List).items) {
      let link: Tokens.Link | undefined;
      new Marked().walkTokens(item.tokens, (t) => {
        if (!link && t.type === 'link') link = t as Tokens.Link;
      });
      if (!link) continue;
      const url = siteHref('docs/README.md', link.href, pages, new Set());
      groups.at(-1)!.links.push({ text: plainText(link.tokens), url });
    }
  }
  return groups;
}

function navHtml(groups: NavGroup[], current: string): string {
  const sections = groups.map((group) => {
    const items = group.links.map(
      ({ text, url }) =>
        `<li><a href="${escapeHtml(url)}"${url === current ? ' aria-current="page"' : ''}>${escapeHtml(text)}</a></li>`,
    );
    return `<h2>${escapeHtml(group.title)}</h2>\n<ul>\n${items.join('\n')}\n</ul>`;
  });
  return `<nav id="contents" class="contents" aria-label="Manual">\n${sections.join('\n')}\n</nav>`;
}

/** One page's HTML body: GitHub's heading anchors, links rewritten to the site's pages. */
function renderMarkdown(source: string, pages: Set<string>, assets: Set<string>): { title: string; html: string } {
  const slug = anchorSlugger();
  let title = '';
  const marked = new Marked({
    gfm: true,
    walkTokens: (token: Token) => {
      if (token.type === 'link' || token.type === 'image') token.href = siteHref(source, token.href, pages, assets);
    },
    renderer: {
      heading({ tokens, depth }: Tokens.Heading): string {
        const text = plainText(tokens);
        if (depth === 1 && !title) title = text;
        const id = slug(text);
        return `<h${depth} id="${escapeHtml(id)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
      },
    },
  });
  const html = marked.parse(read(source), { async: false });
  return { title: title || source, html };
}

function pageHtml(source: string, url: string, title: string, body: string, nav: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · tasktracker manual</title>
<link rel="stylesheet" href="/docs/site.css">
</head>
<body>
<header class="top">
<a class="brand" href="/docs/">tasktracker manual</a>
<a href="${REFERENCE_URL}">API reference</a>
<a href="/docs/changelog/">Changelog</a>
<a href="/">Web app</a>
<a class="jump" href="#contents">Contents</a>
</header>
<div class="layout">
<main>
${body}
</main>
${nav}
</div>
<footer>tasktracker ${escapeHtml(SERVICE_VERSION)} · rendered from <code>${escapeHtml(source)}</code></footer>
</body>
</html>
`;
}

export interface BuiltSite {
  /** Page URL → the source it was rendered from. */
  pages: Map<string, string>;
  /** Files copied from docs/ (images, the OpenAPI document), by repository path. */
  assets: string[];
}

/** Renders every page into `outDir` (emptied first): `<url>/index.html`, the stylesheet and the assets the pages link to. */
export function buildSite(outDir: string): BuiltSite {
  const sources = siteSources();
  const pageSet = new Set(sources);
  const assets = new Set<string>();
  const groups = navigation(pageSet);
  fs.rmSync(outDir, { recursive: true, force: true });
  const pages = new Map<string, string>();
  for (const source of sources) {
    const url = pageUrl(source);
    const { title, html } = renderMarkdown(source, pageSet, assets);
    const file = path.join(outDir, url.slice('/docs/'.length), 'index.html');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, pageHtml(source, url, title, html, navHtml(groups, url)));
    pages.set(url, source);
  }
  for (const asset of assets) {
    const file = path.join(outDir, asset.slice('docs/'.length));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.copyFileSync(path.join(root, asset), file);
  }
  fs.copyFileSync(path.join(import.meta.dirname, 'site.css'), path.join(outDir, 'site.css'));
  return { pages, assets: [...assets].sort() };
}
