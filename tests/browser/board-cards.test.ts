import { chromium, type Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { CHROMIUM, noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

const TASKS = 130;

// A browser on a loaded machine is slow; the actions' own 30 s waits are the real bounds.
describe.skipIf(skipReason !== null)('the board reads by column and by key in Chromium', { timeout: 240_000 }, () => {
  let w: BrowserWorld;
  let owner: SignedIn;
  const api = async (method: 'POST' | 'PUT' | 'GET', url: string, body?: unknown) => {
    const res = await w.h.request(method, url, { token: owner.bot.token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data;
  };
  /** The app's calls to the API from now on (the live stream aside). */
  const record = () => {
    const seen: string[] = [];
    const listener = (request: Request) => {
      const url = new URL(request.url());
      if (url.pathname.startsWith('/api/') && url.pathname !== '/api/console/live/')
        seen.push(`${request.method()} ${url.pathname}${url.search}`);
    };
    w.page.on('request', listener);
    return {
      seen,
      stop: () => w.page.off('request', listener),
    };
  };
  const column = (name: string) => w.page.getByRole('region', { name });

  beforeAll(async () => {
    w = await openWorld();
    owner = await signIn(w);
    await w.h.project(owner.bot, 'BRD', 'Roadmap');
    await w.h.addMember('BRD', owner.userId, 'admin');
    for (let i = 0; i < TASKS; i += 100)
      await api('POST', '/api/v1/projects/BRD/tasks/bulk/', {
        tasks: Array.from({ length: Math.min(100, TASKS - i) }, (_, j) => ({ title: `Card ${i + j + 1}` })),
      });
    await api('POST', '/api/v1/projects/BRD/labels/', { name: 'ui' });
    await api('PUT', '/api/v1/tasks/BRD-1/', { assignee: owner.userId, labels: ['ui'] });
    await api('POST', '/api/v1/tasks/BRD-1/subtasks/', { title: 'A piece of card one' });
  });
  afterAll(async () => w?.close());

  it('shows the first cards of every column from one board read and the rest as a column scrolls', async () => {
    const { page } = w;
    const calls = record();
    await page.goto('/p/BRD/board');
    await column('To Do')
      .getByRole('button', { name: /BRD-1 Card 1$/ })
      .waitFor();
    expect(calls.seen.filter((c) => c.includes('/tasks/'))).toEqual([]);
    expect(calls.seen.filter((c) => c.includes('/board/'))).toEqual(['GET /api/v1/projects/BRD/board/?limit=50']);
    expect(await column('To Do').locator('.count').textContent()).toBe(String(TASKS + 1));
    // Compact cards: a 1280×800 screen shows at least eight of them in a column.
    const area = (await column('To Do').locator('.column-scroll').boundingBox())!;
    const boxes = await column('To Do')
      .locator('.card')
      .evaluateAll((cards) => cards.map((c) => c.getBoundingClientRect().toJSON() as { top: number; bottom: number }));
    expect(boxes.filter((b) => b.top >= area.y && b.bottom <= area.y + area.height).length).toBeGreaterThanOrEqual(8);

    const last = column('To Do').getByRole('button', { name: new RegExp(`BRD-${TASKS} Card ${TASKS}$`) });
    for (let i = 0; i < 20 && !(await last.count()); i++) {
      await column('To Do').locator('.column-scroll').hover();
      await page.mouse.wheel(0, 3000);
    }
    await last.waitFor();
    calls.stop();
    expect(calls.seen.filter((c) => c.includes('/board/')).slice(1)).toEqual([
      expect.stringMatching(/^GET \/api\/v1\/projects\/BRD\/board\/\?limit=50&status=To\+Do&cursor=/),
      expect.stringMatching(/^GET \/api\/v1\/projects\/BRD\/board\/\?limit=50&status=To\+Do&cursor=/),
    ]);
  });

  it('shows avatars, labels and the subtask marker on compact cards', async () => {
    const { page } = w;
    await page.goto('/p/BRD/board?q=BRD-1');
    const one = column('To Do').getByRole('button', { name: /BRD-1 Card 1$/ });
    await one.getByRole('img', { name: 'Ada Lovelace' }).waitFor();
    expect(await one.getByRole('img', { name: 'Ada Lovelace' }).textContent()).toBe('AL');
    expect(await one.locator('.label').allTextContents()).toEqual(['ui']);
    await page.goto('/p/BRD/board?q=piece');
    const sub = column('To Do').getByRole('button', { name: `BRD-${TASKS + 1} A piece of card one, subtask of BRD-1` });
    expect(await sub.locator('.card-parent').textContent()).toBe('↳ Subtask of BRD-1');
    expect(await sub.getByRole('img').getAttribute('aria-label')).toBe('Unassigned');
    await expectAccessible(page, 'board with cards');
    await page.goto('/p/BRD/board');
  });

  it('keeps the card its look while it is dragged', async () => {
    const { page } = w;
    const card = column('To Do').getByRole('button', { name: /BRD-2 Card 2$/ });
    const look = (el: Element) => {
      const style = getComputedStyle(el);
      return { background: style.backgroundColor, radius: style.borderRadius, padding: style.paddingLeft };
    };
    const resting = await card.evaluate(look);
    const box = (await card.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 10, { steps: 5 });
    const lifted = page.locator('.card-lifted');
    await lifted.waitFor();
    expect(await lifted.evaluate(look)).toEqual(resting);
    expect(Math.abs((await lifted.boundingBox())!.width - box.width)).toBeLessThan(2);
    await page.keyboard.press('Escape');
    await page.mouse.up();
    await lifted.waitFor({ state: 'detached' });
  });

  it('applies a change made elsewhere with at most one small read, never the whole board', async () => {
    const { page } = w;
    await page.evaluate(() => Object.assign(window, { ttSamePage: true }));
    let calls = record();
    await api('PUT', '/api/v1/tasks/BRD-3/', { status: 'In Progress', title: 'Card three, started' });
    await column('In Progress').getByRole('button', { name: 'BRD-3 Card three, started' }).waitFor({ timeout: 60_000 });
    calls.stop();
    expect(calls.seen).toEqual(['GET /api/v1/tasks/BRD-3/']);
    expect(
      await column('To Do')
        .getByRole('button', { name: /BRD-3 / })
        .count(),
    ).toBe(0);
    expect(await column('In Progress').locator('.count').textContent()).toBe('1');
    expect(await column('To Do').locator('.count').textContent()).toBe(String(TASKS));

    // Created elsewhere, past the loaded cards of To Do: one read, and the count follows.
    calls = record();
    const made = await api('POST', '/api/v1/projects/BRD/tasks/', { title: 'Made by a script' });
    await expect
      .poll(() => column('To Do').locator('.count').textContent(), { timeout: 60_000 })
      .toBe(String(TASKS + 1));
    calls.stop();
    expect(calls.seen).toEqual([`GET /api/v1/tasks/${made.key}/`]);

    // Deleted elsewhere without having been loaded: which column lost it takes one read of the counts.
    calls = record();
    const res = await w.h.request('DELETE', `/api/v1/tasks/${made.key}/`, { token: owner.bot.token });
    expect(res.status, res.text).toBe(204);
    await expect.poll(() => column('To Do').locator('.count').textContent(), { timeout: 60_000 }).toBe(String(TASKS));
    calls.stop();
    expect(calls.seen).toEqual(['GET /api/v1/projects/BRD/board/?limit=1']);

    // Deleted elsewhere while shown: the event says enough.
    calls = record();
    expect((await w.h.request('DELETE', '/api/v1/tasks/BRD-3/', { token: owner.bot.token })).status).toBe(204);
    await column('In Progress')
      .getByRole('button', { name: /BRD-3 / })
      .waitFor({ state: 'detached' });
    calls.stop();
    expect(calls.seen).toEqual([]);
    expect(await column('In Progress').locator('.count').textContent()).toBe('0');
    expect(await page.evaluate(() => 'ttSamePage' in window)).toBe(true);
  });

  it('adds a task to a column from its own button', async () => {
    const { page } = w;
    // A new task starts in To Do, which reaches In Progress only: no add where it could not go.
    expect(await column('In Review').getByRole('button', { name: 'Add a task to In Review' }).count()).toBe(0);
    await column('In Progress').getByRole('button', { name: 'Add a task to In Progress' }).click();
    const dialog = page.getByRole('dialog', { name: 'New task in In Progress' });
    await dialog.waitFor();
    await page.keyboard.type('Straight to work');
    await page.keyboard.press('Enter');
    const card = column('In Progress').getByRole('button', { name: /Straight to work/ });
    await card.waitFor();
    const key = await card.getAttribute('data-task');
    expect((await api('GET', `/api/v1/tasks/${key}/`)).status).toBe('In Progress');
  });

  it('keeps the phone top bar to one row and shows no keyboard hints on a touch screen', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const phone = await browser.newContext({
        baseURL: w.baseUrl,
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      });
      await phone.addCookies(await w.context.cookies());
      const page = await phone.newPage();
      await page.goto('/p/BRD/board');
      await page.getByRole('region', { name: 'To Do' }).waitFor();
      expect((await page.locator('.topbar').boundingBox())!.height).toBeLessThanOrEqual(60);
      expect(await page.locator('kbd').evaluateAll((all) => all.filter((k) => k.getClientRects().length).length)).toBe(
        0,
      );
      // The navigation is one tap away.
      await page.getByRole('button', { name: 'Menu' }).tap();
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My work' }).tap();
      await page.waitForURL('**/my-work');
      await expectAccessible(page, 'phone my work');
    } finally {
      await browser.close();
    }
  });
});
