import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { noteSkip, openWorld, pickUpWithKeyboard, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

// A browser on a loaded machine is slow; the actions' own 30 s waits are the real bounds.
describe.skipIf(skipReason !== null)('dialogs, notices and the list in Chromium', { timeout: 240_000 }, () => {
  let w: BrowserWorld;
  let owner: SignedIn;
  const api = async (url: string, body: unknown) => {
    const res = await w.h.request('POST', url, { token: owner.bot.token, body });
    expect(res.status, res.text).toBe(201);
    return res.body.data;
  };
  beforeAll(async () => {
    w = await openWorld();
    owner = await signIn(w);
    await w.h.project(owner.bot, 'LST', 'Long list');
    await w.h.addMember('LST', owner.userId, 'admin');
    for (let i = 0; i < 250; i += 100)
      await api('/api/v1/projects/LST/tasks/bulk/', {
        tasks: Array.from({ length: Math.min(100, 250 - i) }, (_, j) => ({ title: `Row ${i + j + 1}` })),
      });
  });
  afterAll(async () => w?.close());

  it('puts what is typed right after c or / into the first field of the dialog', async () => {
    const { page } = w;
    await page.goto('/p/LST/board');
    await page.getByRole('region', { name: 'To Do' }).waitFor();
    await page.keyboard.press('c');
    const newTask = page.getByRole('dialog', { name: 'New task' });
    await newTask.waitFor();
    // Typed at once, spaces included: a space on the close button would close the dialog.
    await page.keyboard.type('Call the printer');
    expect(await newTask.getByLabel('Title').inputValue()).toBe('Call the printer');
    expect(await newTask.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await newTask.waitFor({ state: 'hidden' });

    await page.keyboard.press('/');
    const search = page.getByRole('dialog', { name: 'Search' });
    await search.waitFor();
    await page.keyboard.type('Row 7');
    expect(await search.getByLabel('Search tasks').inputValue()).toBe('Row 7');
    await page.keyboard.press('Escape');
    await search.waitFor({ state: 'hidden' });
  });

  it('pages through every task of the list as it scrolls', async () => {
    const { page } = w;
    await page.goto('/p/LST/list');
    const count = page.locator('.count-note');
    await expect.poll(() => count.textContent()).toBe('200 of 250 tasks');
    const last = page.getByRole('link', { name: 'LST-250', exact: true });
    for (let i = 0; i < 10 && !(await last.count()); i++) {
      await page.mouse.wheel(0, 20_000);
      await page.waitForFunction(() => !document.querySelector('.more-rows[disabled]'));
    }
    await last.waitFor();
    await expect.poll(() => count.textContent()).toBe('250 tasks');
    // Only the rows near the screen are in the page, however many are loaded.
    expect(await page.locator('tr[data-row-task]').count()).toBeLessThan(80);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByRole('link', { name: 'LST-1', exact: true }).waitFor();
    await expect.poll(() => last.count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
  });

  it('lets an error notice go by itself, and dismisses one with its button', async () => {
    const { page } = w;
    await page.clock.install();
    await page.goto('/p/LST/board');
    const refuse = async () => {
      const card = page.getByRole('button', { name: /LST-1 Row 1$/ });
      await card.focus();
      await pickUpWithKeyboard(page, page.locator('.board.dragging'));
      // To Do reaches In Progress only: In Review is refused by the server.
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => page.getByRole('region', { name: 'In Review' }).getAttribute('class')).toContain('over');
      await page.keyboard.press('Space');
      const notice = page.locator('.notice-error').filter({ hasText: 'LST-1 stays in To Do' });
      await notice.waitFor();
      return notice;
    };
    const first = await refuse();
    await page.mouse.move(0, 0);
    await page.clock.fastForward(10_000);
    expect(await first.count()).toBe(1);
    await page.clock.fastForward(6_000);
    await first.waitFor({ state: 'detached' });

    const second = await refuse();
    await second.getByRole('button', { name: 'Dismiss' }).click();
    await second.waitFor({ state: 'detached' });
  });

  it('asks before revoking a token, naming what stops working', async () => {
    const { page } = w;
    await page.goto('/settings/tokens');
    await page.getByLabel('Token name').fill('deploy script');
    await page.getByRole('button', { name: 'Create token' }).click();
    const revoke = page.getByRole('button', { name: 'Revoke deploy script' });
    await revoke.waitFor();
    const secret: string = (await page.locator('.secret code').first().textContent()) ?? '';
    expect(secret.length).toBeGreaterThan(10);
    const works = async () =>
      (await w.h.request('GET', '/api/v1/projects/LST/tasks/?limit=1', { token: secret.trim() })).status;
    expect(await works()).toBe(200);

    await revoke.click();
    const confirm = page.getByRole('dialog', { name: 'Revoke the token “deploy script”?' });
    await confirm.getByText('Every script or integration using it stops at once').waitFor();
    // The focus starts on Cancel: a habitual Enter loses nothing.
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'hidden' });
    expect(await works()).toBe(200);

    await revoke.click();
    await confirm.getByRole('button', { name: 'Revoke the token' }).click();
    await revoke.waitFor({ state: 'detached' });
    expect(await works()).toBe(401);
  });

  it('installs as an app: a web manifest with an icon, and an offline notice', async () => {
    const { page, context } = w;
    await page.goto('/p/LST/board');
    await page.getByRole('region', { name: 'To Do' }).waitFor();
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = await page.evaluate(async (url) => {
      const res = await fetch(url!);
      return { type: res.headers.get('content-type'), body: await res.json() };
    }, href);
    expect(manifest.type).toContain('manifest+json');
    expect(manifest.body).toMatchObject({ name: 'tasktracker', start_url: '/', display: 'standalone' });
    const icon = await page.evaluate(
      async (src) => (await fetch(src)).headers.get('content-type'),
      manifest.body.icons[0].src,
    );
    expect(icon).toContain('image/svg+xml');

    await context.setOffline(true);
    const notice = page.getByRole('status').filter({ hasText: 'You are offline' });
    await notice.waitFor();
    await context.setOffline(false);
    await notice.waitFor({ state: 'detached' });
  });

  it('switches to the compact density, which fits more rows and is kept after a reload', async () => {
    const { page } = w;
    await page.goto('/p/LST/list');
    const row = page.locator('tr[data-row-task="LST-1"]');
    await row.waitFor();
    const comfortable = (await row.boundingBox())!.height;
    await page.goto('/settings/appearance');
    await page.getByRole('radio', { name: /Compact/ }).check();
    expect(await page.evaluate(() => document.documentElement.dataset.density)).toBe('compact');
    await page.goto('/p/LST/list');
    await row.waitFor();
    const compact = (await row.boundingBox())!.height;
    expect(compact).toBeLessThan(comfortable - 4);
    await page.goto('/settings/appearance');
    expect(await page.getByRole('radio', { name: /Compact/ }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: /Comfortable/ }).check();
    expect(await page.evaluate(() => document.documentElement.dataset.density)).toBeUndefined();
  });
});
