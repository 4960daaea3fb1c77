import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

// A browser on a loaded machine is slow; the actions' own 30 s waits are the real bounds.
describe.skipIf(skipReason !== null)('the timeline in Chromium', { timeout: 240_000 }, () => {
  let w: BrowserWorld;
  let owner: SignedIn;
  const api = async (method: 'POST' | 'PUT' | 'GET', url: string, body?: unknown) => {
    const res = await w.h.request(method, url, { token: owner.bot.token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data;
  };
  const task = (key: string) => api('GET', `/api/v1/tasks/${key}/`);
  /** The app's writes to tasks from now on. */
  const writes = () => {
    const seen: Array<{ url: string; body: unknown }> = [];
    w.page.on('request', (request) => {
      if (['PUT', 'PATCH'].includes(request.method()) && /\/api\/v1\/tasks\//.test(request.url()))
        seen.push({ url: new URL(request.url()).pathname, body: request.postDataJSON() });
    });
    return seen;
  };
  const bar = (key: string) => w.page.locator(`[data-bar="${key}"]`);

  beforeAll(async () => {
    w = await openWorld();
    owner = await signIn(w);
    await w.h.project(owner.bot, 'TL', 'Timeline');
    await w.h.addMember('TL', owner.userId, 'admin');
    const sprint = await api('POST', '/api/v1/projects/TL/sprints/', { name: 'Sprint 1' });
    await api('POST', '/api/v1/projects/TL/tasks/', {
      title: 'Design the API',
      due_date: '2026-12-04',
      sprint: sprint.id,
    });
    await api('POST', '/api/v1/projects/TL/tasks/', {
      title: 'Build the client',
      due_date: '2026-12-11',
      sprint: sprint.id,
      assignee: owner.userId,
    });
    await api('POST', '/api/v1/projects/TL/tasks/', { title: 'Write the docs', due_date: '2026-12-16' });
    await api('POST', '/api/v1/tasks/TL-1/link/', { task: 'TL-2', type: 'blocks' });
  });
  afterAll(async () => w?.close());

  it('shows bars grouped by sprint, with the blocks link drawn as an arrow', async () => {
    const { page } = w;
    await page.goto('/p/TL/timeline?zoom=day');
    await bar('TL-1').waitFor();
    const groups = await page.locator('.tl-group').allTextContents();
    expect(groups).toEqual(['Sprint 1 2', 'No sprint 1']);
    expect(await bar('TL-2').getAttribute('aria-label')).toBe(
      'TL-2 Build the client, To Do, Friday, December 11, 2026',
    );
    await page.locator('[data-link="TL-1>TL-2"]').waitFor({ state: 'attached' });
    // A day is 36 px at this scale: TL-2 is due a week after TL-1.
    const one = (await bar('TL-1').boundingBox())!;
    const two = (await bar('TL-2').boundingBox())!;
    expect(Math.round(two.x - one.x)).toBe(7 * 36);
    await expectAccessible(page, 'timeline');

    await page.getByLabel('Group by').selectOption('assignee');
    await expect.poll(() => page.locator('.tl-group').allTextContents()).toEqual(['Ada Lovelace 1', 'Unassigned 2']);
    expect(new URL(page.url()).searchParams.get('group')).toBe('assignee');
  });

  it('drags a bar along the days with the mouse: one update of its dates', async () => {
    const { page } = w;
    await page.goto('/p/TL/timeline?zoom=day');
    const seen = writes();
    const box = (await bar('TL-3').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 3 * 36, box.y + box.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect.poll(async () => (await task('TL-3')).due_date).toBe('2026-12-19');
    await expect.poll(() => seen).toEqual([{ url: '/api/v1/tasks/TL-3/', body: { due_date: '2026-12-19' } }]);
    expect(new URL(page.url()).searchParams.get('task')).toBe(null);
  });

  it('moves a bar with the keyboard only', async () => {
    const { page } = w;
    const seen = writes();
    await bar('TL-3').focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Enter');
    await expect.poll(async () => (await task('TL-3')).due_date).toBe('2026-12-25');
    await expect.poll(() => seen).toEqual([{ url: '/api/v1/tasks/TL-3/', body: { due_date: '2026-12-25' } }]);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-bar'))).toBe('TL-3');
    // Enter on a bar that is not picked up opens the task beside the timeline.
    await page.keyboard.press('Enter');
    await page.getByRole('complementary', { name: 'Task TL-3' }).waitFor();
  });

  it('refuses a drag that starts a task before its blocker is due, naming the blocker, and moves it anyway when asked', async () => {
    const { page } = w;
    await api('PUT', '/api/v1/tasks/TL-2/', { start_date: '2026-12-07' });
    await page.goto('/p/TL/timeline?zoom=day');
    await expect
      .poll(() => bar('TL-2').getAttribute('aria-label'))
      .toBe('TL-2 Build the client, To Do, Monday, December 7, 2026 to Friday, December 11, 2026');
    const seen = writes();
    const box = (await bar('TL-2').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 5 * 36, box.y + box.height / 2, { steps: 6 });
    await page.mouse.up();
    const alert = page.getByRole('alert').filter({ hasText: 'TL-2 cannot start before TL-1' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('TL-1 “Design the API” (due 2026-12-04)');
    await expect
      .poll(() => seen)
      .toEqual([{ url: '/api/v1/tasks/TL-2/', body: { start_date: '2026-12-02', due_date: '2026-12-06' } }]);
    // Nothing changed, on the server or on screen.
    expect(await task('TL-2')).toMatchObject({ start_date: '2026-12-07', due_date: '2026-12-11' });
    await expect
      .poll(() => bar('TL-2').getAttribute('aria-label'))
      .toBe('TL-2 Build the client, To Do, Monday, December 7, 2026 to Friday, December 11, 2026');

    await alert.getByRole('button', { name: 'Move TL-2 anyway' }).click();
    await expect.poll(async () => (await task('TL-2')).start_date).toBe('2026-12-02');
    expect(seen[1]).toEqual({
      url: '/api/v1/tasks/TL-2/',
      body: { start_date: '2026-12-02', due_date: '2026-12-06', force: true },
    });
  });

  it('changes only the due date by dragging the end of a bar, or with Shift and the arrows', async () => {
    const { page } = w;
    const seen = writes();
    const end = bar('TL-2').locator('[data-edge="end"]');
    const box = (await end.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 2 * 36, box.y + box.height / 2, { steps: 6 });
    await page.mouse.up();
    await expect.poll(() => seen).toEqual([{ url: '/api/v1/tasks/TL-2/', body: { due_date: '2026-12-08' } }]);
    await bar('TL-2').focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('Space');
    await expect.poll(() => seen.length).toBe(2);
    expect(seen[1]).toEqual({ url: '/api/v1/tasks/TL-2/', body: { due_date: '2026-12-09' } });
    await expect.poll(() => task('TL-2')).toMatchObject({ start_date: '2026-12-02', due_date: '2026-12-09' });
  });

  it('saves what it shows as a view with the timeline layout, and reopens it from its address', async () => {
    const { page } = w;
    await page.goto('/p/TL/timeline?zoom=day&group=assignee&q=title%20~%20client');
    await bar('TL-2').waitFor();
    await expect.poll(() => page.locator('[data-bar]').count()).toBe(1);
    await page.getByRole('button', { name: 'Save as a view' }).click();
    await page.getByLabel('View name').fill('Client work');
    await page.getByLabel('Shared').check();
    await page.getByRole('button', { name: 'Save view' }).click();
    await page.getByText('View Client work').waitFor();
    const id = new URL(page.url()).searchParams.get('view');
    const view = await api('GET', `/api/v1/views/${id}/`);
    expect(view).toMatchObject({
      name: 'Client work',
      layout: 'timeline',
      group_by: 'assignee',
      project: 'TL',
      query: 'title ~ client',
      shared: true,
    });

    await page.goto(`/p/TL/timeline?view=${id}`);
    await bar('TL-2').waitFor();
    expect(await page.locator('[data-bar]').count()).toBe(1);
    expect(await page.locator('.tl-group').allTextContents()).toEqual(['Ada Lovelace 1']);
    // From the views list's address too.
    await page.goto(`/views/${id}`);
    await page.waitForURL(`**/p/TL/timeline?view=${id}`);
    await bar('TL-2').waitFor();
  });

  it('opens on today on a phone too, with today inside the visible dates', async () => {
    const { page } = w;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.goto('/p/TL/timeline?zoom=day');
      await bar('TL-1').waitFor();
      const region = (await page.getByRole('region', { name: 'Timeline', exact: true }).boundingBox())!;
      const names = (await page.locator('.tl-label').first().boundingBox())!;
      const today = (await page.locator('.tl-today').boundingBox())!;
      // Right of the sticky task column, left of the region's right edge.
      expect(today.x).toBeGreaterThan(region.x + names.width - 1);
      expect(today.x + today.width).toBeLessThanOrEqual(region.x + region.width);
    } finally {
      await page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
