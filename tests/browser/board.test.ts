import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, pickUpWithKeyboard, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

// A browser on a loaded machine is slow; the actions' own 30 s waits are the real bounds.
describe.skipIf(skipReason !== null)('the board in Chromium', { timeout: 180_000 }, () => {
  let w: BrowserWorld;
  let owner: SignedIn;
  const status = async (key: string) =>
    (await w.h.request('GET', `/api/v1/tasks/${key}/`, { token: owner.bot.token })).body.data.status;
  beforeAll(async () => {
    w = await openWorld();
    owner = await signIn(w);
  });
  afterAll(async () => w?.close());

  it('creates a project and tasks from the keyboard', async () => {
    const { page } = w;
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    await expectAccessible(page, 'projects');
    await page.getByLabel('Name', { exact: true }).fill('Website');
    await page.getByLabel('Key', { exact: true }).fill('WEB');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: /Website/ }).waitFor();
    await page.getByRole('region', { name: 'To Do' }).waitFor();
    for (const title of ['Write the landing page', 'Fix the footer']) {
      await page.keyboard.press('c');
      const dialog = page.getByRole('dialog', { name: 'New task' });
      await dialog.getByLabel('Title').fill(title);
      await dialog.getByRole('button', { name: 'Create task' }).click();
      await page.getByRole('button', { name: new RegExp(title) }).waitFor();
    }
    expect(await page.getByRole('region', { name: 'To Do' }).getByRole('button', { name: /^WEB-/ }).count()).toBe(2);
    expect(new URL(page.url()).pathname).toBe('/p/WEB/board');
    await w.h.addMember('WEB', owner.bot.accountId, 'admin');
    await expectAccessible(page, 'board');
  });

  it('drags a card along a transition, lighting only reachable columns, and explains a refused drop', async () => {
    const { page } = w;
    const card = page.getByRole('button', { name: /WEB-1 Write the landing page/ });
    const inProgress = page.getByRole('region', { name: 'In Progress' });
    const done = page.getByRole('region', { name: 'Done' });
    const box = (await card.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 20, box.y + box.height / 2, { steps: 4 });
    // From To Do the default workflow reaches In Progress only.
    await expect.poll(() => inProgress.getAttribute('class')).toContain('column-reachable');
    expect(await done.getAttribute('class')).toContain('column-unreachable');
    expect(await page.getByRole('region', { name: 'In Review' }).getAttribute('class')).toContain('column-unreachable');
    const target = (await inProgress.boundingBox())!;
    await page.mouse.move(target.x + target.width / 2, target.y + 120, { steps: 8 });
    await page.mouse.up();
    await inProgress.getByRole('button', { name: /WEB-1/ }).waitFor();
    await expect.poll(async () => status('WEB-1')).toBe('In Progress');

    // Dropping on Done, which no transition from To Do reaches: back to To Do, with the server's reason.
    const second = page.getByRole('button', { name: /WEB-2 Fix the footer/ });
    const from = (await second.boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + from.width / 2 + 20, from.y + from.height / 2, { steps: 4 });
    const doneBox = (await done.boundingBox())!;
    await page.mouse.move(doneBox.x + doneBox.width / 2, doneBox.y + 120, { steps: 8 });
    await page.mouse.up();
    const notice = page.getByRole('status').filter({ hasText: 'WEB-2 stays in To Do' });
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/request id [0-9a-f-]{36}/);
    await page.getByRole('region', { name: 'To Do' }).getByRole('button', { name: /WEB-2/ }).waitFor();
    expect(await status('WEB-2')).toBe('To Do');
  });

  it('moves a card with the keyboard only', async () => {
    const { page } = w;
    const card = page.getByRole('button', { name: /WEB-2 Fix the footer/ });
    await card.focus();
    await pickUpWithKeyboard(page, page.locator('.board.dragging'));
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => page.getByRole('region', { name: 'In Progress' }).getAttribute('class')).toContain('over');
    await page.keyboard.press('Space');
    await page.getByRole('region', { name: 'In Progress' }).getByRole('button', { name: /WEB-2/ }).waitFor();
    await expect.poll(async () => status('WEB-2')).toBe('In Progress');
  });

  it('keeps filters in the URL', async () => {
    const { page } = w;
    await page.getByLabel('Text', { exact: true }).fill('footer');
    await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('footer');
    await expect.poll(() => page.getByRole('button', { name: /WEB-1/ }).count()).toBe(0);
    await page.reload();
    await page.getByRole('button', { name: /WEB-2/ }).waitFor();
    expect(await page.getByRole('button', { name: /WEB-1/ }).count()).toBe(0);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByRole('button', { name: /WEB-1/ }).waitFor();
  });

  it('edits the workflow as a from/to grid and the board order with move buttons', async () => {
    const { page } = w;
    await page.getByRole('navigation', { name: 'Project views' }).getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Workflow' }).waitFor();
    const cell = page.getByRole('checkbox', { name: 'To Do to Done' });
    expect(await cell.isChecked()).toBe(false);
    // The tick follows the server, so it shows once the transition exists: click, then wait for it.
    await cell.click();
    await expect.poll(() => cell.isChecked()).toBe(true);
    const project = (await w.h.request('GET', '/api/v1/projects/', { token: owner.bot.token })).body.data.find(
      (p: { key: string }) => p.key === 'WEB',
    );
    // The tick may show before the server has committed the transition: poll the API for it.
    const transitions = async () =>
      (
        await w.h.request('GET', `/api/v1/transitions/?workflow=${project.workflow}&limit=100`, {
          token: owner.bot.token,
        })
      ).body.data;
    await expect
      .poll(async () =>
        (await transitions()).map(
          (t: { from_status_name: string; to_status_name: string }) => `${t.from_status_name}>${t.to_status_name}`,
        ),
      )
      .toContain('To Do>Done');
    await page.getByRole('button', { name: 'Move Done up' }).click();
    await expect
      .poll(async () =>
        (await w.h.request('GET', `/api/v1/statuses/?project=${project.id}`, { token: owner.bot.token })).body.data.map(
          (s: { name: string }) => s.name,
        ),
      )
      .toEqual(['To Do', 'In Progress', 'Done', 'In Review']);
    await expectAccessible(page, 'project settings');
  });

  it('shows changes made through the API with a token on the open board, without a reload', async () => {
    const { page } = w;
    await page.goto('/p/WEB/board');
    await page.getByRole('button', { name: /WEB-1 Write the landing page/ }).waitFor();
    // A reload would lose this mark.
    await page.evaluate(() => Object.assign(window, { ttSamePage: true }));
    // The board does not poll and the page keeps its focus: only the live stream can bring these changes.
    const created = await w.h.request('POST', '/api/v1/projects/WEB/tasks/', {
      token: owner.bot.token,
      body: { title: 'Made by a script' },
    });
    expect(created.status, created.text).toBe(201);
    const key: string = created.body.data.key;
    const card = (column: string) =>
      page.getByRole('region', { name: column }).getByRole('button', { name: new RegExp(`${key} Made by a script`) });
    await card('To Do').waitFor({ timeout: 60_000 });

    const moved = await w.h.request('PUT', `/api/v1/tasks/${key}/`, {
      token: owner.bot.token,
      body: { status: 'In Progress' },
    });
    expect(moved.status, moved.text).toBe(200);
    await card('In Progress').waitFor({ timeout: 60_000 });
    expect(await card('To Do').count()).toBe(0);
    expect(await page.evaluate(() => 'ttSamePage' in window)).toBe(true);
  });
});
