import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSite, pageUrl, REFERENCE_URL, siteSources, type BuiltSite } from '../../scripts/docs/site.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';

const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** The built file a site URL names (a page is its directory's index.html). */
function builtFile(dir: string, url: string): string {
  const relative = url.slice('/docs/'.length);
  return path.join(dir, url.endsWith('/') ? path.join(relative, 'index.html') : relative);
}

describe('the documentation site', () => {
  let dir: string;
  let site: BuiltSite;
  let h: TestHarness;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tasktracker-docs-site-'));
    site = buildSite(dir);
    h = await createHarness({ app: { docsSiteDir: dir } });
  });
  afterAll(async () => {
    await h?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('renders every page of the manual, the changelogs and the benchmark results', () => {
    expect([...site.pages.values()].sort()).toEqual(siteSources().sort());
    expect(site.pages.get('/docs/')).toBe('docs/README.md');
    expect(site.pages.get('/docs/api/errors/')).toBe('docs/api/errors.md');
    expect(site.pages.get('/docs/changelog/')).toBe('CHANGELOG.md');
    expect(site.pages.get('/docs/benchmarks/')).toBe('bench/RESULTS.md');
    expect(site.assets).toContain('docs/screenshots/board.png');
    for (const url of site.pages.keys()) expect(fs.existsSync(builtFile(dir, url)), url).toBe(true);
  });

  it('every link of every page leads to a built page or file, and every #anchor to a heading there', () => {
    const broken: string[] = [];
    const ids = (file: string) => new Set([...fs.readFileSync(file, 'utf8').matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
    for (const url of site.pages.keys()) {
      const html = fs.readFileSync(builtFile(dir, url), 'utf8');
      expect(html, url).not.toMatch(/<script|\sstyle=|\son[a-z]+=/i);
      for (const [, target] of html.matchAll(/(?:href|src)="([^"]+)"/g)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target!) || target === '/' || target!.startsWith(REFERENCE_URL)) continue;
        const [file, anchor] = target!.startsWith('#') ? [url, target!.slice(1)] : target!.split('#');
        if (!file!.startsWith('/docs/') || !fs.existsSync(builtFile(dir, file!))) {
          broken.push(`${url}: ${target}`);
          continue;
        }
        if (anchor && !ids(builtFile(dir, file!)).has(anchor)) broken.push(`${url}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('is served at /docs/ with a CSP that runs no script, beside the API reference', async () => {
    const index = await h.app.inject({ method: 'GET', url: '/docs/' });
    expect(index.statusCode).toBe(200);
    expect(index.headers['content-type']).toContain('text/html');
    expect(index.headers['content-security-policy']).toBe(CSP);
    expect(index.headers['x-frame-options']).toBe('DENY');
    expect(index.headers['x-content-type-options']).toBe('nosniff');
    expect(index.body).toContain('<h1 id="the-tasktracker-manual">The tasktracker manual</h1>');

    const page = await h.app.inject({ method: 'GET', url: pageUrl('docs/operating/reverse-proxy.md') });
    expect([page.statusCode, page.headers['content-security-policy']]).toEqual([200, CSP]);
    expect(page.body).toContain('id="nginx"');
    expect(page.body).toContain('aria-current="page"');

    const css = await h.app.inject({ method: 'GET', url: '/docs/site.css' });
    expect([css.statusCode, css.headers['content-type']]).toEqual([200, 'text/css; charset=utf-8']);

    const reference = await h.app.inject({ method: 'GET', url: REFERENCE_URL });
    expect(reference.statusCode).toBe(200);
    expect(reference.body).toContain('swagger');
  });

  it('redirects a page asked for without its slash, and answers 404 for anything it did not build', async () => {
    for (const [url, location] of [
      ['/docs', '/docs/'],
      ['/docs/api/errors', '/docs/api/errors/'],
    ]) {
      const res = await h.app.inject({ method: 'GET', url: url! });
      expect([res.statusCode, new URL(res.headers.location as string, 'http://x').pathname], url).toEqual([301, location]);
    }
    for (const url of [
      '/docs/nope/',
      '/docs/api/',
      '/docs/../package.json',
      '/docs/%2e%2e/package.json',
      '/docs/..%2f..%2fpackage.json',
      '/docs/api/errors.md',
      '/docs//etc/passwd',
    ]) {
      const res = await h.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.body, url).not.toContain('"dependencies"');
      expect(res.body, url).not.toContain('root:');
    }
  });

  it('says how to build it when it is not built, and the API reference still works', async () => {
    const bare = await createHarness({ app: { docsSiteDir: path.join(dir, 'missing') } });
    try {
      const res = await bare.app.inject({ method: 'GET', url: '/docs/' });
      expect([res.statusCode, res.body]).toEqual([503, expect.stringContaining('npm run build:docs')]);
      expect((await bare.app.inject({ method: 'GET', url: '/docs' })).statusCode).toBe(301);
      expect((await bare.app.inject({ method: 'GET', url: REFERENCE_URL })).statusCode).toBe(200);
    } finally {
      await bare.close();
    }
  });
});
