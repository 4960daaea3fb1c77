import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

// A browser on a loaded machine is slow; the actions' own 30 s waits are the real bounds.
describe.skipIf(skipReason !== null)('completing a sprint in Chromium', { timeout: 180_000 }, () => {
  let w: BrowserWorld;
  let owner: SignedIn;
  const sprint: Record<string, number> = {};
  const api = async (method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) => {
    const res = await w.h.request(method, url, { token: owner.bot.token, body });
    expect(res.status, `${method} ${url}: ${res.text}`).toBeLessThan(300);
    return res.body?.data;
  };
  const sprintsOf = async (...keys: string[]) =>
    Promise.all(
      keys.map(async (key) => ((await api('GET', `/api/v1/tasks/${key}/`)) as { sprint: number | null }).sprint),
    );
  const stateOf = async (name: string) =>
    ((await api('GET', `/api/v1/sprints/${sprint[name]}/`)) as { state: string }).state;

  beforeAll(async () => {
    w = await openWorld();
    owner = await signIn(w);
    await w.h.project(owner.bot, 'SPR', 'Sprints');
    await w.h.addMember('SPR', owner.userId, 'admin');
    for (const [name, state] of [
      ['Sprint 1', 'active'],
      ['Sprint 2', 'planned'],
      ['Sprint 3', 'planned'],
    ] as const)
      sprint[name] = ((await api('POST', '/api/v1/projects/SPR/sprints/', { name, state })) as { id: number }).id;
    // Sprint 1: two tasks done, two open (one in progress).
    for (let i = 1; i <= 4; i++)
      await api('POST', '/api/v1/projects/SPR/tasks/', { title: `Task ${i}`, sprint: sprint['Sprint 1'] });
    for (const key of ['SPR-1', 'SPR-2']) {
      await api('PUT', `/api/v1/tasks/${key}/`, { status: 'In Progress' });
      await api('PUT', `/api/v1/tasks/${key}/`, { status: 'Done' });
    }
    await api('PUT', '/api/v1/tasks/SPR-3/', { status: 'In Progress' });
  });
  afterAll(async () => w?.close());

  it('carries the open tasks over to the sprint chosen, the done ones stay', async () => {
    const { page } = w;
    await page.goto('/p/SPR/settings');
    const sprints = page.getByRole('region', { name: 'Sprints' });
    await sprints.getByRole('button', { name: 'Complete Sprint 1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Complete Sprint 1' });
    await dialog.getByText('2 tasks are not done: SPR-3, SPR-4.').waitFor();
    const to = dialog.getByLabel('Move the open tasks to');
    expect(await to.locator('option').allTextContents()).toEqual([
      'Sprint 2 (planned)',
      'Sprint 3 (planned)',
      'The backlog (no sprint)',
      'Nowhere: they stay in Sprint 1',
    ]);
    await to.selectOption({ label: 'Sprint 3 (planned)' });
    await expectAccessible(page, 'complete a sprint');
    await dialog.getByRole('button', { name: 'Complete the sprint' }).click();
    await dialog.waitFor({ state: 'detached' });
    await sprints.getByRole('button', { name: 'Complete Sprint 1' }).waitFor({ state: 'detached' });
    expect(await stateOf('Sprint 1')).toBe('completed');
    expect(await sprintsOf('SPR-1', 'SPR-2', 'SPR-3', 'SPR-4')).toEqual([
      sprint['Sprint 1'],
      sprint['Sprint 1'],
      sprint['Sprint 3'],
      sprint['Sprint 3'],
    ]);
  });

  it('moves the open tasks to the backlog, or leaves them, when asked', async () => {
    const { page } = w;
    const sprints = page.getByRole('region', { name: 'Sprints' });
    await sprints.getByRole('button', { name: 'Complete Sprint 3' }).click();
    const dialog = page.getByRole('dialog', { name: 'Complete Sprint 3' });
    await dialog.getByText('2 tasks are not done: SPR-3, SPR-4.').waitFor();
    // A completed sprint takes no tasks: only Sprint 2 and the other choices are offered.
    const to = dialog.getByLabel('Move the open tasks to');
    expect(await to.locator('option').allTextContents()).toEqual([
      'Sprint 2 (planned)',
      'The backlog (no sprint)',
      'Nowhere: they stay in Sprint 3',
    ]);
    await to.selectOption({ label: 'The backlog (no sprint)' });
    await dialog.getByRole('button', { name: 'Complete the sprint' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await stateOf('Sprint 3')).toBe('completed');
    expect(await sprintsOf('SPR-3', 'SPR-4')).toEqual([null, null]);

    // Leaving them: Sprint 2 completes with its open task still in it.
    await api('PUT', '/api/v1/tasks/SPR-4/', { sprint: sprint['Sprint 2'] });
    await page.reload();
    await sprints.getByRole('button', { name: 'Complete Sprint 2' }).click();
    const last = page.getByRole('dialog', { name: 'Complete Sprint 2' });
    await last.getByText('1 task is not done: SPR-4.').waitFor();
    await last.getByLabel('Move the open tasks to').selectOption({ label: 'Nowhere: they stay in Sprint 2' });
    await last.getByRole('button', { name: 'Complete the sprint' }).click();
    await last.waitFor({ state: 'detached' });
    expect(await stateOf('Sprint 2')).toBe('completed');
    expect(await sprintsOf('SPR-4')).toEqual([sprint['Sprint 2']]);
  });
});
