import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

// A browser on a loaded machine is slow; the actions' own 30 s waits are the real bounds.
describe.skipIf(skipReason !== null)('the reports screen in Chromium', { timeout: 240_000 }, () => {
  let w: BrowserWorld;
  let owner: SignedIn;
  const api = async (method: 'POST' | 'PUT' | 'GET', url: string, body?: unknown) => {
    const res = await w.h.request(method, url, { token: owner.bot.token, body });
    expect(res.status, res.text).toBeLessThan(300);
    return res.body.data;
  };

  beforeAll(async () => {
    w = await openWorld();
    owner = await signIn(w);
    await w.h.project(owner.bot, 'REP', 'Reports');
    await w.h.addMember('REP', owner.userId, 'admin');
    const sprint = await api('POST', '/api/v1/projects/REP/sprints/', {
      name: 'Sprint 1',
      start_date: '2026-11-16',
      end_date: '2026-11-20',
      state: 'active',
    });
    for (const [title, estimate] of [
      ['Plan', 3],
      ['Build', 5],
    ] as const)
      await api('POST', '/api/v1/projects/REP/tasks/', { title, estimate, sprint: sprint.id });
    await api('PUT', '/api/v1/tasks/REP-1/', { status: 'In Progress' });
  });
  afterAll(async () => w?.close());

  it('draws each report as a chart with its numbers in a table beside it, and exports the table as CSV', async () => {
    const { page } = w;
    await page.goto('/p/REP/board');
    await page.getByRole('navigation', { name: 'Project views' }).getByRole('link', { name: 'Reports' }).click();
    const burndown = page.getByRole('figure', { name: 'Burndown: Days' });
    await burndown.waitFor();
    // When the report was taken, as a person reads a date, not the API's timestamp.
    const asOf = page.locator('.report-summary div', { hasText: 'As of' }).locator('dd');
    expect(await asOf.textContent()).toMatch(/^Nov \d{1,2}, 2026, \d{1,2}:\d{2}\s[AP]M$/);
    expect(await burndown.getByRole('img', { name: /Burndown: Days, chart/ }).count()).toBe(1);
    const table = burndown.getByRole('table', { name: 'Burndown: Days' });
    expect(await table.getByRole('columnheader').allTextContents()).toEqual([
      'Date',
      'Remaining estimate',
      'Remaining tasks',
      'Added tasks',
      'Added estimate',
      'Removed tasks',
      'Removed estimate',
      'Ideal estimate',
    ]);
    expect(await table.getByRole('rowheader').first().textContent()).toBe('2026-11-16');
    // The chart is drawn (a canvas with pixels), not only placed.
    expect(await burndown.locator('canvas').evaluate((c: HTMLCanvasElement) => c.width > 0 && c.height > 0)).toBe(true);
    await expectAccessible(page, 'reports');

    const download = page.waitForEvent('download');
    await burndown.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('REP-burndown-days.csv');
    const csv = await new Response((await file.createReadStream()) as unknown as ReadableStream).text();
    expect(csv.split('\r\n')[0]).toBe(
      'date,remaining_estimate,remaining_tasks,added_tasks,added_estimate,removed_tasks,removed_estimate,ideal_estimate',
    );

    for (const [button, figure] of [
      ['Cumulative flow', 'Cumulative flow: Days'],
      ['Cycle time', 'Cycle time: Throughput'],
    ] as const) {
      await page.getByRole('button', { name: button, exact: true }).click();
      await page.getByRole('figure', { name: figure }).getByRole('table').waitFor();
    }
    // No sprint is closed yet: velocity says so rather than drawing an empty chart.
    await page.getByRole('button', { name: 'Velocity', exact: true }).click();
    await page.getByText('No figures for this period.').waitFor();
    await page.getByRole('button', { name: 'Cumulative flow', exact: true }).click();
    const flow = page.getByRole('figure', { name: 'Cumulative flow: Days' });
    expect(await flow.getByRole('columnheader').allTextContents()).toEqual([
      'Date',
      'To Do',
      'In Progress',
      'In Review',
      'Done',
    ]);
  });
});
