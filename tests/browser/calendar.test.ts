import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

// A browser on a loaded machine is slow; the actions' own 30 s waits are the real bounds.
describe.skipIf(skipReason !== null)('the calendar in Chromium', { timeout: 240_000 }, () => {
  let w: BrowserWorld;
  let owner: SignedIn;
  const api = async (method: 'POST' | 'PUT' | 'GET', url: string, body?: unknown) => {
    const res = await w.h.request(method, url, { token: owner.bot.token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data;
  };
  const due = async (key: string) => (await api('GET', `/api/v1/tasks/${key}/`)).due_date;
  /** The app's writes to tasks from now on. */
  const writes = () => {
    const seen: Array<{ url: string; body: unknown }> = [];
    w.page.on('request', (request) => {
      if (['PUT', 'PATCH'].includes(request.method()) && /\/api\/v1\/tasks\//.test(request.url()))
        seen.push({ url: new URL(request.url()).pathname, body: request.postDataJSON() });
    });
    return seen;
  };
  const day = (name: RegExp) => w.page.getByRole('listitem', { name });

  beforeAll(async () => {
    w = await openWorld();
    owner = await signIn(w);
    await w.h.project(owner.bot, 'CAL', 'Calendar');
    await w.h.addMember('CAL', owner.userId, 'admin');
    await api('POST', '/api/v1/projects/CAL/tasks/', { title: 'Print the posters', due_date: '2026-12-03' });
    await api('POST', '/api/v1/projects/CAL/tasks/', { title: 'Book the venue', due_date: '2026-12-10' });
    await api('POST', '/api/v1/projects/CAL/tasks/', { title: 'Someday, maybe' });
  });
  afterAll(async () => w?.close());

  it('shows the month with each task on its due date', async () => {
    const { page } = w;
    await page.goto('/p/CAL/calendar?date=2026-12-01');
    await page.getByRole('heading', { name: 'December 2026' }).waitFor();
    await day(/^Thursday, December 3, 2026, 1 task$/)
      .getByRole('button', { name: /CAL-1 Print the posters/ })
      .waitFor();
    await day(/^Thursday, December 10, 2026, 1 task$/)
      .getByRole('button', { name: /CAL-2 Book the venue/ })
      .waitFor();
    expect(await page.getByRole('button', { name: /CAL-3/ }).count()).toBe(0);
    // The grid starts on the Monday before the 1st and ends on the Sunday after the 31st.
    expect(await page.locator('[data-cell]').first().getAttribute('data-cell')).toBe('2026-11-30');
    expect(await page.locator('[data-cell]').last().getAttribute('data-cell')).toBe('2027-01-03');
    await expectAccessible(page, 'calendar');
  });

  it('drags a task to another day with the mouse: one update of its due date', async () => {
    const { page } = w;
    const seen = writes();
    const chip = page.getByRole('button', { name: /CAL-1 Print the posters/ });
    const from = (await chip.boundingBox())!;
    const to = (await day(/^Saturday, December 5, 2026/).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
    await page.mouse.up();
    await day(/^Saturday, December 5, 2026, 1 task$/)
      .getByRole('button', { name: /CAL-1/ })
      .waitFor();
    await expect.poll(() => due('CAL-1')).toBe('2026-12-05');
    await expect.poll(() => seen).toEqual([{ url: '/api/v1/tasks/CAL-1/', body: { due_date: '2026-12-05' } }]);
    // The drag did not also open the task.
    expect(new URL(page.url()).searchParams.get('task')).toBe(null);
  });

  it('moves a task with the keyboard only: Space, arrows (a day, a week), Space', async () => {
    const { page } = w;
    const seen = writes();
    await page.getByRole('button', { name: /CAL-2 Book the venue/ }).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Space');
    await expect.poll(() => due('CAL-2')).toBe('2026-12-18');
    await expect.poll(() => seen).toEqual([{ url: '/api/v1/tasks/CAL-2/', body: { due_date: '2026-12-18' } }]);
    // The focus followed the task to its new day.
    expect(await page.evaluate(() => document.activeElement?.closest('[data-cell]')?.getAttribute('data-cell'))).toBe(
      '2026-12-18',
    );
    // Escape puts a picked-up task back without a write.
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Escape');
    expect(seen.length).toBe(1);
    expect(await due('CAL-2')).toBe('2026-12-18');
  });

  it('shows a task from its start to its due date on every day between, and moves both dates', async () => {
    const { page } = w;
    await api('POST', '/api/v1/projects/CAL/tasks/', {
      title: 'Run the workshop',
      start_date: '2026-12-21',
      due_date: '2026-12-23',
    });
    await page.goto('/p/CAL/calendar?date=2026-12-01');
    const chips = page.locator('[data-chip="CAL-4"]');
    await expect.poll(() => chips.count()).toBe(3);
    expect(await chips.evaluateAll((els) => els.map((e) => e.getAttribute('data-day')))).toEqual([
      '2026-12-21',
      '2026-12-22',
      '2026-12-23',
    ]);
    expect(await chips.first().getAttribute('aria-label')).toBe(
      'CAL-4 Run the workshop, To Do, from Monday, December 21, 2026 to Wednesday, December 23, 2026',
    );
    const seen = writes();
    const from = (await chips.nth(1).boundingBox())!;
    const to = (await day(/^Wednesday, December 23, 2026/).boundingBox())!;
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 8 });
    await page.mouse.up();
    await expect
      .poll(() => seen)
      .toEqual([{ url: '/api/v1/tasks/CAL-4/', body: { start_date: '2026-12-22', due_date: '2026-12-24' } }]);
    await expect
      .poll(() => api('GET', '/api/v1/tasks/CAL-4/'))
      .toMatchObject({
        start_date: '2026-12-22',
        due_date: '2026-12-24',
      });
  });

  it('narrows to a query, shows a week, and opens a task beside the calendar', async () => {
    const { page } = w;
    await page.getByLabel('Query', { exact: true }).fill('title ~ venue');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: /CAL-1/ }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: /CAL-2 Book the venue/ }).waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe('title ~ venue');

    await page.getByLabel('Query', { exact: true }).fill('titel ~ venue');
    await page.keyboard.press('Enter');
    await page
      .getByRole('alert')
      .filter({ hasText: /unknown field 'titel'/ })
      .waitFor();

    await page.goto('/p/CAL/calendar?date=2026-12-16&mode=week');
    await page.getByRole('heading', { name: /Dec 14 – Dec 20/ }).waitFor();
    // The heading shows while the tasks still load; the days come with them.
    await page.getByRole('list', { name: 'Days of the week' }).waitFor();
    expect(await page.locator('[data-cell]').count()).toBe(7);
    await page.getByRole('button', { name: /CAL-2 Book the venue/ }).click();
    await page.getByRole('complementary', { name: 'Task CAL-2' }).waitFor();
  });

  it("shows a person's own calendar across projects", async () => {
    const { page } = w;
    await w.h.project(owner.bot, 'OPS', 'Operations');
    await w.h.addMember('OPS', owner.userId, 'member');
    await api('POST', '/api/v1/projects/OPS/tasks/', {
      title: 'Renew the certificate',
      due_date: '2026-12-04',
      assignee: owner.userId,
    });
    await api('PUT', '/api/v1/tasks/CAL-1/', { assignee: owner.userId });
    await page.goto('/calendar?date=2026-12-01');
    await page.getByRole('heading', { name: 'My calendar' }).waitFor();
    await day(/^Friday, December 4, 2026, 1 task$/)
      .getByRole('button', { name: /OPS-1 Renew the certificate/ })
      .waitFor();
    await day(/^Saturday, December 5, 2026, 1 task$/)
      .getByRole('button', { name: /CAL-1 Print the posters/ })
      .waitFor();
    // Not assigned to them: not on their calendar.
    expect(await page.getByRole('button', { name: /CAL-2/ }).count()).toBe(0);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' }).waitFor();
  });
});
