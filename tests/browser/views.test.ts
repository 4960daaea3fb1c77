import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

// A browser on a loaded machine is slow; the actions' own 30 s waits are the real bounds.
describe.skipIf(skipReason !== null)('the query bar and saved views in Chromium', { timeout: 180_000 }, () => {
  let w: BrowserWorld;
  let owner: SignedIn;
  const api = async (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) =>
    w.h.request(method, url, { token: owner.bot.token, body });
  beforeAll(async () => {
    w = await openWorld();
    owner = await signIn(w);
    for (const key of ['VWA', 'VWB']) {
      await w.h.project(owner.bot, key, key === 'VWA' ? 'Apps' : 'Backend');
      await w.h.addMember(key, owner.userId, 'admin');
      expect((await api('POST', `/api/v1/projects/${key}/labels/`, { name: 'bug', color: '#a4161a' })).status).toBe(
        201,
      );
    }
    const tasks: Array<[string, string, string[], boolean]> = [
      ['VWA', 'Crash on start', ['bug'], true],
      ['VWA', 'New onboarding', [], true],
      ['VWB', 'Timeout in sync', ['bug'], true],
      ['VWB', 'Someone else’s bug', ['bug'], false],
    ];
    for (const [key, title, labels, mine] of tasks) {
      const res = await api('POST', `/api/v1/projects/${key}/tasks/`, {
        title,
        labels,
        ...(mine ? { assignee: owner.userId } : {}),
      });
      expect(res.status, res.text).toBe(201);
    }
    // Done work is not "My work".
    const done = await api('POST', '/api/v1/projects/VWA/tasks/', { title: 'Shipped', assignee: owner.userId });
    for (const status of ['In Progress', 'Done'])
      expect((await api('PUT', `/api/v1/tasks/${done.body.data.key}/`, { status })).status).toBe(200);
  });
  afterAll(async () => w?.close());

  const shownKeys = async () =>
    (await w.page.locator('.view-table .key').allTextContents()).sort((a, b) => a.localeCompare(b));

  it('opens My work as a built-in view across projects', async () => {
    const { page } = w;
    await page.goto('/my-work');
    await page.getByRole('heading', { name: 'My work', level: 1 }).waitFor();
    await expect
      .poll(() =>
        page
          .getByRole('status')
          .filter({ hasText: /tasks?$/ })
          .textContent(),
      )
      .toBe('3 tasks');
    expect(await shownKeys()).toEqual(['VWA-1', 'VWA-2', 'VWB-1']);
    expect(await page.getByRole('combobox', { name: 'Query' }).inputValue()).toBe(
      'assignee = me() AND status_category != done',
    );
    const nav = page.getByRole('navigation', { name: 'Views' });
    expect(await nav.getByRole('link', { name: 'My work' }).getAttribute('aria-current')).toBe('page');
    await expectAccessible(page, 'my work view');
  });

  it('completes fields and values, and underlines where a refused query went wrong', async () => {
    const { page } = w;
    const bar = page.getByRole('combobox', { name: 'Query' });
    await bar.fill('');
    await bar.pressSequentially('lab');
    const suggestions = page.getByRole('listbox', { name: 'Suggestions' });
    await suggestions.getByRole('option', { name: /^label/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await bar.inputValue()).toBe('label ');
    await suggestions.getByRole('option', { name: /^=/ }).first().waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Tab');
    expect(await bar.inputValue()).toBe('label = ');
    // The labels of the projects in reach are offered once the bar has been used.
    await suggestions.getByRole('option', { name: /^bug/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await bar.inputValue()).toBe('label = bug ');
    await expectAccessible(page, 'query bar with suggestions');

    // A typo: the service's message and the wrong word underlined at its position.
    await bar.fill('label = bug AND stauts = Done');
    await page.keyboard.press('Enter');
    const error = page.getByRole('alert').filter({ hasText: "unknown field 'stauts'" });
    await error.waitFor();
    await error.getByText("did you mean 'status'?").waitFor();
    expect(await error.locator('mark').textContent()).toBe('stauts');
    expect(await bar.getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => new URL(location.href).searchParams.get('q'))).toBe(
      'label = bug AND stauts = Done',
    );
    await expectAccessible(page, 'refused query');

    await bar.fill('label = bug AND status_category != done ORDER BY created ASC');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Run query' }).click();
    await error.waitFor({ state: 'detached' });
    await expect.poll(shownKeys).toEqual(['VWA-1', 'VWB-1', 'VWB-2']);
    expect(await page.locator('.view-table .key').allTextContents()).toEqual(['VWA-1', 'VWB-1', 'VWB-2']);
  });

  it('saves the query as a view, reopens it from the sidebar, renames, shares and deletes it', async () => {
    const { page } = w;
    await page.getByRole('button', { name: 'Save as view' }).click();
    const dialog = page.getByRole('dialog', { name: 'Save as view' });
    await dialog.getByLabel('View name').fill('Open bugs');
    await dialog.getByRole('button', { name: 'Save view' }).click();
    await page.waitForURL(/\/views\/\d+$/);
    const id = Number(/\/views\/(\d+)$/.exec(page.url())![1]);
    await page.getByRole('heading', { name: 'Open bugs', level: 1 }).waitFor();
    expect((await api('GET', `/api/v1/views/${id}/`)).status).toBe(404); // private to its creator
    const nav = page.getByRole('navigation', { name: 'Views' });
    await nav.getByRole('link', { name: 'Open bugs' }).waitFor();

    // Reopened from elsewhere: the saved query and its tasks.
    await nav.getByRole('link', { name: 'My work' }).click();
    await page.waitForURL('**/my-work');
    await expect.poll(shownKeys).toEqual(['VWA-1', 'VWA-2', 'VWB-1']);
    await nav.getByRole('link', { name: 'Open bugs' }).click();
    await page.waitForURL(`**/views/${id}`);
    expect(await page.getByRole('combobox', { name: 'Query' }).inputValue()).toBe(
      'label = bug AND status_category != done ORDER BY created ASC',
    );
    await expect.poll(() => page.locator('.view-table .key').allTextContents()).toEqual(['VWA-1', 'VWB-1', 'VWB-2']);
    await expectAccessible(page, 'saved view');

    // A changed query is saved into the view.
    const bar = page.getByRole('combobox', { name: 'Query' });
    await bar.fill('label = bug AND assignee = me()');
    await page.getByRole('button', { name: 'Run query' }).click();
    await expect.poll(shownKeys).toEqual(['VWA-1', 'VWB-1']);
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByRole('status').filter({ hasText: 'View saved.' }).waitFor();
    await page.getByRole('button', { name: 'Save changes' }).waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Rename view' }).click();
    const rename = page.getByRole('dialog', { name: 'Rename view' });
    await rename.getByLabel('View name').fill('My bugs');
    await rename.getByRole('button', { name: 'Rename' }).click();
    await page.getByRole('heading', { name: 'My bugs', level: 1 }).waitFor();
    await nav.getByRole('link', { name: 'My bugs' }).waitFor();

    await page.getByRole('checkbox', { name: 'Shared with the organization' }).check();
    await expect.poll(async () => (await api('GET', `/api/v1/views/${id}/`)).body.data?.shared).toBe(true);
    expect((await api('GET', `/api/v1/views/${id}/`)).body.data).toMatchObject({
      name: 'My bugs',
      query: 'label = bug AND assignee = me()',
      project: null,
      shared: true,
    });

    await page.getByRole('button', { name: 'Delete view' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete the view “My bugs”?' });
    await confirm.getByText('for everyone it is shared with').waitFor();
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'hidden' });
    expect((await api('GET', `/api/v1/views/${id}/`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete view' }).click();
    await confirm.getByRole('button', { name: 'Delete the view' }).click();
    await page.waitForURL('**/my-work');
    await nav.getByRole('link', { name: 'My bugs' }).waitFor({ state: 'detached' });
    expect((await api('GET', `/api/v1/views/${id}/`)).status).toBe(404);
  });

  it('groups a saved view and picks its columns, both kept with the view', async () => {
    const { page } = w;
    await page.goto(`/my-work?q=${encodeURIComponent('label = bug ORDER BY created ASC')}`);
    await expect.poll(shownKeys).toEqual(['VWA-1', 'VWB-1', 'VWB-2']);
    const headings = (table = page.locator('.view-table').first()) => table.locator('th').allTextContents();
    expect(await headings()).toEqual(['Key', 'Title', 'Status', 'Assignee', 'Priority', 'Due']);
    await page.getByRole('button', { name: 'Save as view' }).click();
    const save = page.getByRole('dialog', { name: 'Save as view' });
    await save.getByLabel('View name').fill('Bugs by project');
    await save.getByRole('checkbox', { name: /Share it with/ }).check();
    await save.getByRole('button', { name: 'Save view' }).click();
    await page.waitForURL(/\/views\/\d+$/);
    const id = Number(/\/views\/(\d+)$/.exec(page.url())![1]);

    await page.getByRole('button', { name: 'Display' }).click();
    const display = page.getByRole('dialog', { name: 'Display' });
    await display.getByLabel('Group by').selectOption({ label: 'Project' });
    await display.getByRole('checkbox', { name: 'Priority' }).uncheck();
    await display.getByRole('checkbox', { name: 'Due' }).uncheck();
    await display.getByRole('checkbox', { name: 'Labels' }).check();
    await display.getByText('Shown in this order: Key, Title, Status, Assignee, Labels.').waitFor();
    await display.getByRole('button', { name: 'Save display' }).click();
    await page.getByRole('status').filter({ hasText: 'View saved.' }).waitFor();
    expect((await api('GET', `/api/v1/views/${id}/`)).body.data).toMatchObject({
      group_by: 'project',
      columns: ['key', 'title', 'status', 'assignee', 'labels'],
    });

    // Reopened, the view shows its sections and columns.
    await page.reload();
    const apps = page.getByRole('region', { name: 'Project: VWA' });
    const backend = page.getByRole('region', { name: 'Project: VWB' });
    await expect.poll(() => backend.locator('.key').allTextContents()).toEqual(['VWB-1', 'VWB-2']);
    expect(await apps.locator('.key').allTextContents()).toEqual(['VWA-1']);
    expect(await apps.getByRole('heading').textContent()).toBe('VWA 1');
    expect(await headings(apps.locator('table'))).toEqual(['Key', 'Title', 'Status', 'Assignee', 'Labels']);
    expect(await apps.locator('td.col-labels').textContent()).toBe('bug');
    await expectAccessible(page, 'saved view in sections');
  });
});
