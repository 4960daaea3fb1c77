import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

// A browser on a loaded machine is slow; the actions' own 30 s waits are the real bounds.
describe.skipIf(skipReason !== null)('keyboard first, and the themes, in Chromium', { timeout: 240_000 }, () => {
  let w: BrowserWorld;
  let owner: SignedIn;
  const api = async (method: 'POST' | 'GET', url: string, body?: unknown) => {
    const res = await w.h.request(method, url, { token: owner.bot.token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data;
  };
  beforeAll(async () => {
    w = await openWorld();
    owner = await signIn(w);
    await w.h.project(owner.bot, 'KEY', 'Keyboard');
    await w.h.addMember('KEY', owner.userId, 'admin');
    await api('POST', '/api/v1/projects/KEY/labels/', { name: 'urgent' });
    for (const title of ['Sharpen the pencils', 'Order more paper', 'Oil the hinges'])
      await api('POST', '/api/v1/projects/KEY/tasks/', { title });
  });
  afterAll(async () => w?.close());

  const palette = async (text: string) => {
    const { page } = w;
    await page.keyboard.press('Control+k');
    const dialog = page.getByRole('dialog', { name: 'Command palette' });
    await dialog.waitFor();
    await page.keyboard.type(text);
    return dialog;
  };

  it('finds actions, projects, people and tasks in the command palette', async () => {
    const { page } = w;
    await page.goto('/p/KEY/board');
    await page.getByRole('region', { name: 'To Do' }).waitFor();

    let dialog = await palette('list');
    await dialog.getByRole('option', { name: 'Go to the KEY list' }).waitFor();
    await expectAccessible(page, 'command palette');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/p/KEY/list');

    dialog = await palette('keyboard');
    // "Keyboard shortcuts", an action, comes first; the project is one click away.
    await dialog.getByRole('option', { name: 'Keyboard (KEY)' }).click();
    await page.waitForURL('**/p/KEY/board');

    dialog = await palette('lovelace');
    await dialog.getByRole('option', { name: /Ada Lovelace/ }).waitFor();
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('assignee')).toBe(String(owner.userId));

    dialog = await palette('hinges');
    await dialog.getByRole('option', { name: /KEY-3 Oil the hinges/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await dialog.getByRole('option', { name: /KEY-3 Oil the hinges/, selected: true }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL('**/t/KEY-3');
  });

  it('moves with j and k, opens with Enter, assigns with a, and reaches status and labels with s and l', async () => {
    const { page } = w;
    await page.goto('/p/KEY/board');
    await page.getByRole('button', { name: /KEY-1 / }).waitFor();
    await page.locator('main').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-task'))).toBe('KEY-1');

    // `a` on the focused card, without opening it.
    await page.keyboard.press('a');
    await expect.poll(async () => (await api('GET', '/api/v1/tasks/KEY-1/')).assignee).toBe(owner.userId);
    await page
      .getByRole('button', { name: /KEY-1 / })
      .getByRole('img', { name: 'Ada Lovelace' })
      .waitFor();

    await page.keyboard.press('Enter');
    const panel = page.getByRole('complementary', { name: 'Task KEY-1' });
    await panel.waitFor();
    await panel.getByLabel('Status').waitFor();
    await page.keyboard.press('s');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('task-status');
    await panel.getByLabel('Status').press('Escape');
    await panel.focus();
    await page.keyboard.press('l');
    const search = panel.getByRole('combobox', { name: 'Search labels' });
    await search.waitFor();
    await page.keyboard.type('urg');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await api('GET', '/api/v1/tasks/KEY-1/')).labels).toEqual(['urgent']);
    await page.keyboard.press('Escape');
    await search.waitFor({ state: 'detached' });

    // `s` on a focused card opens it with the focus on its status.
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /KEY-2 / }).focus();
    await page.keyboard.press('s');
    await page.getByRole('complementary', { name: 'Task KEY-2' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('task-status');
  });

  it('selects list rows with x', async () => {
    const { page } = w;
    await page.goto('/p/KEY/list');
    await page.getByRole('link', { name: 'KEY-1', exact: true }).waitFor();
    await page.locator('main').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await page.keyboard.press('x');
    expect(await page.getByLabel('Select KEY-2').isChecked()).toBe(true);
    await page.getByRole('region', { name: 'Bulk edit' }).getByText('1 selected').waitFor();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.getByText('Command palette: any action, project, person or task').waitFor();
    await page.keyboard.press('Escape');
  });

  it('follows the system theme until switched, and keeps the switch', async () => {
    const { page } = w;
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto('/p/KEY/board');
    await page.getByRole('region', { name: 'To Do' }).waitFor();
    expect(await background()).toBe('rgb(17, 20, 24)');
    await expectAccessible(page, 'board, dark');
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await background()).toBe('rgb(246, 247, 249)');
    await page.getByRole('button', { name: 'Dark theme' }).click();
    expect(await background()).toBe('rgb(17, 20, 24)');
    await page.reload();
    await page.getByRole('region', { name: 'To Do' }).waitFor();
    expect(await background()).toBe('rgb(17, 20, 24)');
    expect(await page.getByRole('button', { name: 'Dark theme' }).getAttribute('aria-pressed')).toBe('true');
    await page.goto('/p/KEY/list');
    await page.getByRole('link', { name: 'KEY-1', exact: true }).waitFor();
    await expectAccessible(page, 'list, dark');
    await page.getByRole('button', { name: 'Dark theme' }).click();
    expect(await background()).toBe('rgb(246, 247, 249)');
  });
});
