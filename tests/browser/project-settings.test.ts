import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, pickUpWithKeyboard, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

/** Waits for what the server stores after a save (the default 1 s is short on a loaded machine). */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 15_000 });

/** Drags `handle` with the mouse until its row's middle sits over `target`'s middle, then drops. */
async function mouseDrag(page: Page, handle: Locator, target: Locator): Promise<void> {
  await handle.scrollIntoViewIfNeeded();
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 10, { steps: 3 });
  await page.mouse.move(from.x + from.width / 2, to.y + to.height / 2 + 4, { steps: 10 });
  await page.mouse.up();
}

// A browser on a loaded machine is slow; the actions' own 30 s waits are the real bounds.
describe.skipIf(skipReason !== null)(
  'project settings, custom fields, standup settings and live recovery in Chromium',
  { timeout: 180_000 },
  () => {
    let w: BrowserWorld;
    let owner: SignedIn;
    let projectId: number;
    const api = async (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown) => {
      const res = await w.h.request(method, url, { token: owner.bot.token, body });
      expect(res.status, `${method} ${url}: ${res.text}`).toBeLessThan(300);
      return res.body?.data;
    };
    const names = async (path: string) => ((await api('GET', path)) as Array<{ name: string }>).map((x) => x.name);
    beforeAll(async () => {
      w = await openWorld();
      owner = await signIn(w);
      await w.h.project(owner.bot, 'SET', 'Settings demo');
      await w.h.addMember('SET', owner.userId, 'admin');
      projectId = ((await api('GET', '/api/v1/projects/')) as Array<{ id: number; key: string }>).find(
        (p) => p.key === 'SET',
      )!.id;
      await api('POST', '/api/v1/projects/SET/tasks/', { title: 'Ship the release' });
    });
    afterAll(async () => w?.close());

    it('creates, edits and deletes labels, milestones and sprints', async () => {
      const { page } = w;
      await page.goto('/p/SET/settings');
      const labels = page.getByRole('region', { name: 'Labels' });
      await labels.getByText('No labels yet.').waitFor();
      const newLabel = labels.getByRole('form', { name: 'New label' });
      await newLabel.getByLabel('Name').fill('backend');
      await newLabel.getByLabel('Color').fill('#d73a4a');
      await newLabel.getByRole('button', { name: 'Add label' }).click();
      await labels.getByRole('button', { name: 'Edit backend' }).waitFor();
      expect(await api('GET', '/api/v1/projects/SET/labels/')).toEqual([
        expect.objectContaining({ name: 'backend', color: '#d73a4a', task_count: 0 }),
      ]);
      await api('PUT', '/api/v1/tasks/SET-1/', { labels: ['backend'] });

      await labels.getByRole('button', { name: 'Edit backend' }).click();
      const editLabel = labels.getByRole('form', { name: 'Edit label backend' });
      await editLabel.getByLabel('Name').fill('server');
      await editLabel.getByLabel('Description').fill('API and workers');
      await editLabel.getByRole('button', { name: 'Save' }).click();
      await labels.getByRole('button', { name: 'Edit server' }).waitFor();
      // Tasks carry labels by name: the rename shows on the task.
      expect((await api('GET', '/api/v1/tasks/SET-1/')).labels).toEqual(['server']);

      const milestones = page.getByRole('region', { name: 'Milestones' });
      const newMilestone = milestones.getByRole('form', { name: 'New milestone' });
      await newMilestone.getByLabel('Name').fill('1.0');
      await newMilestone.getByLabel('Due date').fill('2026-12-15');
      await newMilestone.getByRole('button', { name: 'Add milestone' }).click();
      await milestones.getByRole('button', { name: 'Edit 1.0' }).click();
      const editMilestone = milestones.getByRole('form', { name: 'Edit milestone 1.0' });
      await editMilestone.getByLabel('State').selectOption('closed');
      await editMilestone.getByLabel('Due date').fill('');
      await editMilestone.getByRole('button', { name: 'Save' }).click();
      await milestones.getByText('no due date').waitFor();
      expect(await api('GET', '/api/v1/projects/SET/milestones/')).toEqual([
        expect.objectContaining({ name: '1.0', state: 'closed', due_date: null }),
      ]);

      const sprints = page.getByRole('region', { name: 'Sprints' });
      const newSprint = sprints.getByRole('form', { name: 'New sprint' });
      await newSprint.getByLabel('Name').fill('Sprint 1');
      await newSprint.getByLabel('Starts').fill('2026-11-23');
      await newSprint.getByLabel('Ends').fill('2026-12-04');
      await newSprint.getByLabel('State').selectOption('active');
      await newSprint.getByLabel('Goal').fill('Release candidate');
      await newSprint.getByRole('button', { name: 'Add sprint' }).click();
      await sprints.getByRole('button', { name: 'Edit Sprint 1' }).waitFor();
      expect(await api('GET', '/api/v1/projects/SET/sprints/')).toEqual([
        expect.objectContaining({
          name: 'Sprint 1',
          start_date: '2026-11-23',
          end_date: '2026-12-04',
          state: 'active',
          goal: 'Release candidate',
        }),
      ]);
      // A second active sprint is refused with the service's message, and nothing is added.
      await newSprint.getByLabel('Name').fill('Sprint 2');
      await newSprint.getByLabel('State').selectOption('active');
      await newSprint.getByRole('button', { name: 'Add sprint' }).click();
      await sprints
        .getByRole('alert')
        .filter({ hasText: /request id/ })
        .waitFor();
      expect(await names('/api/v1/projects/SET/sprints/')).toEqual(['Sprint 1']);

      await expectAccessible(page, 'project settings with planning');

      // Deleting asks first, says how many tasks lose it, and takes it off them.
      await labels.getByRole('button', { name: 'Delete server' }).click();
      await labels.getByRole('dialog', { name: 'Delete server?' }).getByText('It comes off 1 task.').waitFor();
      await labels.getByRole('button', { name: 'Yes, delete server' }).click();
      await labels.getByText('No labels yet.').waitFor();
      expect((await api('GET', '/api/v1/tasks/SET-1/')).labels).toEqual([]);
      await milestones.getByRole('button', { name: 'Delete 1.0' }).click();
      await milestones.getByRole('button', { name: 'Keep it' }).click();
      await milestones.getByRole('button', { name: 'Delete 1.0' }).click();
      await milestones.getByRole('button', { name: 'Yes, delete 1.0' }).click();
      await milestones.getByText('No milestones yet.').waitFor();
      expect(await api('GET', '/api/v1/projects/SET/milestones/')).toEqual([]);
    });

    it('reorders statuses by dragging with the mouse and with the keyboard', async () => {
      const { page } = w;
      await page.goto('/p/SET/settings');
      const statuses = `/api/v1/statuses/?project=${projectId}`;
      expect(await names(statuses)).toEqual(['To Do', 'In Progress', 'In Review', 'Done']);
      const list = page.getByRole('list', { name: 'Statuses in order' });
      const row = (name: string) =>
        list.getByRole('listitem').filter({ has: page.getByRole('button', { name: `Drag ${name}` }) });
      const shown = async () => (await list.locator('li strong').allTextContents()).join(',');

      await mouseDrag(page, list.getByRole('button', { name: 'Drag Done' }), row('In Progress'));
      await eventually(() => names(statuses)).toEqual(['To Do', 'Done', 'In Progress', 'In Review']);
      await eventually(shown).toBe('To Do,Done,In Progress,In Review');
      // Rows take no new drag while a reorder is being saved: wait until it has been.
      const saved = () =>
        eventually(() => list.getByRole('button', { name: 'Move In Review up' }).isEnabled()).toBe(true);
      await saved();

      // Keyboard: Space picks up, arrows move a row at a time, Space drops.
      await list.getByRole('button', { name: 'Drag To Do' }).focus();
      await pickUpWithKeyboard(page, page.locator('.sortable-row.dragging'));
      // Each arrow moves over the next row, which shows where the drop lands (the page may scroll first).
      await page.keyboard.press('ArrowDown');
      await eventually(() => row('Done').getAttribute('class')).toContain('drop-here');
      await page.keyboard.press('ArrowDown');
      await eventually(() => row('In Progress').getAttribute('class')).toContain('drop-here');
      await page.keyboard.press('Space');
      await eventually(() => names(statuses)).toEqual(['Done', 'In Progress', 'To Do', 'In Review']);
      await saved();
      // Escape cancels a keyboard drag: nothing moves.
      await list.getByRole('button', { name: 'Drag In Review' }).focus();
      await pickUpWithKeyboard(page, page.locator('.sortable-row.dragging'));
      await page.keyboard.press('ArrowUp');
      await eventually(() => row('To Do').getAttribute('class')).toContain('drop-here');
      await page.keyboard.press('Escape');
      await eventually(() => page.locator('.sortable-row.dragging').count()).toBe(0);
      // The move buttons remain.
      await list.getByRole('button', { name: 'Move Done down' }).click();
      await eventually(() => names(statuses)).toEqual(['In Progress', 'Done', 'To Do', 'In Review']);
      await eventually(shown).toBe('In Progress,Done,To Do,In Review');
    });

    it('defines a select field, reorders its options by drag, renames, adds and deletes one', async () => {
      const { page } = w;
      const section = page.getByRole('region', { name: 'Custom fields' });
      const form = section.getByRole('form', { name: 'New custom field' });
      await form.getByLabel('Field name').fill('Severity');
      await form.getByLabel('Type').selectOption('select');
      await form.getByLabel('Options').fill('Low\nMedium\nHigh');
      await form.getByRole('button', { name: 'Add field' }).click();
      const options = section.getByRole('list', { name: 'Options of Severity in order' });
      await options.getByRole('button', { name: 'Drag High' }).waitFor();
      const field = async () =>
        (
          (await api('GET', `/api/v1/custom-fields/?project=${projectId}`)) as Array<{
            name: string;
            options: Array<{ value: string }>;
            projects: number[] | null;
          }>
        ).find((f) => f.name === 'Severity')!;
      expect((await field()).projects).toEqual([projectId]);

      // Keyboard drag of High to the top.
      await options.getByRole('button', { name: 'Drag High' }).focus();
      await pickUpWithKeyboard(page, page.locator('.sortable-row.dragging'));
      const row = (value: string) =>
        options.getByRole('listitem').filter({ has: page.getByRole('button', { name: `Drag ${value}` }) });
      await page.keyboard.press('ArrowUp');
      await eventually(() => row('Medium').getAttribute('class')).toContain('drop-here');
      await page.keyboard.press('ArrowUp');
      await eventually(() => row('Low').getAttribute('class')).toContain('drop-here');
      await page.keyboard.press('Space');
      await eventually(async () => (await field()).options.map((o) => o.value)).toEqual(['High', 'Low', 'Medium']);
      await eventually(() => options.getByRole('button', { name: 'Move Medium up' }).isEnabled()).toBe(true);
      // Mouse drag of Medium above Low.
      await mouseDrag(page, options.getByRole('button', { name: 'Drag Medium' }), row('Low'));
      await eventually(async () => (await field()).options.map((o) => o.value)).toEqual(['High', 'Medium', 'Low']);
      // The list takes edits again once the reorder has settled in the page (its move buttons come back).
      await eventually(() => options.getByRole('button', { name: 'Move Medium up' }).isEnabled()).toBe(true);

      await options.getByRole('textbox', { name: 'Option Low', exact: true }).fill('Minor');
      await options.getByRole('form', { name: 'Rename option Low' }).getByRole('button', { name: 'Save' }).click();
      await options.getByRole('button', { name: 'Drag Minor' }).waitFor();
      await section.getByLabel('New option of Severity').fill('Critical');
      await section.getByRole('button', { name: 'Add option' }).click();
      await options.getByRole('button', { name: 'Drag Critical' }).waitFor();
      await options.getByRole('button', { name: 'Delete option Medium' }).click();
      await eventually(async () => (await field()).options.map((o) => o.value)).toEqual(['High', 'Minor', 'Critical']);
      // Editing the definition: a new name, and every project instead of this one.
      await section.getByRole('button', { name: 'Edit Severity' }).click();
      const edit = section.getByRole('form', { name: 'Edit field Severity' });
      await edit.getByLabel('Field name').fill('Impact');
      await edit.getByLabel('Every project').check();
      await expectAccessible(page, 'custom field settings');
      await edit.getByRole('button', { name: 'Save' }).click();
      await section.getByRole('button', { name: 'Edit Impact' }).waitFor();
      const impact = (
        (await api('GET', `/api/v1/custom-fields/?project=${projectId}`)) as Array<{
          name: string;
          projects: number[] | null;
        }>
      ).find((f) => f.name === 'Impact');
      expect(impact?.projects).toBeNull();
      await section.getByRole('button', { name: 'Edit Impact' }).click();
      await section.getByRole('form', { name: 'Edit field Impact' }).getByLabel('Field name').fill('Severity');
      await section.getByRole('form', { name: 'Edit field Impact' }).getByRole('button', { name: 'Save' }).click();
      await section.getByRole('button', { name: 'Edit Severity' }).waitFor();
    });

    it('edits custom fields of every type in place, and keeps a change made meanwhile', async () => {
      const { page } = w;
      const make = async (name: string, type: string, options?: string[]) =>
        (await api('POST', '/api/v1/custom-fields/', {
          name,
          type,
          projects: [projectId],
          ...(options ? { options } : {}),
        })) as { id: number; options: Array<{ id: number; value: string }> };
      const text = await make('Notes', 'text');
      const number = await make('Estimate', 'number');
      const date = await make('Target date', 'date');
      const bool = await make('Customer facing', 'boolean');
      const url = await make('Spec', 'url');
      const user = await make('Reviewer', 'user');
      const multi = await make('Platforms', 'multi_select', ['Linux', 'macOS', 'Windows']);
      const severity = (
        (await api('GET', `/api/v1/custom-fields/?project=${projectId}`)) as Array<{
          id: number;
          name: string;
          options: Array<{ id: number; value: string }>;
        }>
      ).find((f) => f.name === 'Severity')!;
      const stored = async () => (await api('GET', '/api/v1/tasks/SET-1/')).custom_fields as Record<string, unknown>;

      await page.goto('/t/SET-1');
      await page.getByRole('heading', { name: /Ship the release/ }).waitFor();
      const details = page.getByRole('complementary', { name: 'Details' });
      const platforms = details.getByRole('group', { name: 'Platforms' });
      await platforms.waitFor();
      // Typed values are saved when the field is left; choices as soon as they are made, each
      // save waiting for the one before it.
      await details.getByLabel('Notes').fill('Check the changelog');
      await details.getByLabel('Estimate', { exact: true }).fill('3.5');
      await details.getByLabel('Spec').fill('https://example.org/spec');
      await details.getByLabel('Spec').press('Tab');
      await details.getByLabel('Target date').fill('2026-12-01');
      await details.getByLabel('Customer facing').selectOption('Yes');
      await details.getByLabel('Reviewer').selectOption('Ada Lovelace');
      await details.getByLabel('Severity').selectOption('Critical');
      await platforms.getByLabel('Linux').check();
      await platforms.getByLabel('Windows').check();
      const option = (f: { options: Array<{ id: number; value: string }> }, value: string) =>
        f.options.find((o) => o.value === value)!.id;
      await eventually(stored).toEqual({
        [text.id]: 'Check the changelog',
        [number.id]: 3.5,
        [date.id]: '2026-12-01',
        [bool.id]: true,
        [url.id]: 'https://example.org/spec',
        [user.id]: owner.userId,
        [severity.id]: option(severity, 'Critical'),
        [multi.id]: [option(multi, 'Linux'), option(multi, 'Windows')],
      });
      await expectAccessible(page, 'task with custom fields');

      // Someone changes the estimate meanwhile; clearing the notes here sends only the notes, so
      // whether it meets the change live or as a conflict to re-apply, the estimate is theirs.
      await api('PUT', '/api/v1/tasks/SET-1/', { custom_fields: { [number.id]: 8 } });
      await details.getByLabel('Notes').fill('');
      await details.getByLabel('Notes').press('Tab');
      const conflict = page.getByRole('alert').filter({ hasText: 'Someone changed this task' });
      const reapply = conflict.getByRole('button', { name: 'Re-apply my changes' });
      const [notes, estimate, customerFacing] = [text.id, number.id, bool.id];
      await eventually(async () => {
        if (await reapply.isVisible()) await reapply.click();
        const now = await stored();
        return [now[notes] ?? 'cleared', now[estimate], now[customerFacing]];
      }).toEqual(['cleared', 8, true]);
      await eventually(() => details.getByLabel('Estimate', { exact: true }).inputValue()).toBe('8');
      await page
        .getByRole('region', { name: 'History' })
        .getByText(/changed Estimate from\s*3\.5\s*to\s*8/)
        .waitFor();
    });

    it('changes the standup settings', async () => {
      const { page } = w;
      await page.goto('/standups');
      await page.getByRole('navigation', { name: 'Standup views' }).getByRole('link', { name: 'Schedule' }).click();
      const form = page.getByRole('form', { name: 'Standup settings' });
      await form.getByLabel('Timezone').fill('Europe/Berlin');
      await form.getByLabel('Reminder time').fill('10:15');
      await form.getByLabel('Friday').uncheck();
      await form.getByLabel('Saturday').check();
      await form.getByLabel('Question 2').fill('What will you do next?');
      await form.getByRole('button', { name: 'Remove question 3' }).click();
      await form.getByRole('button', { name: 'Add a question' }).click();
      await form.getByLabel('Question 3').fill('Anything to celebrate?');
      await expectAccessible(page, 'standup settings');
      await form.getByRole('button', { name: 'Save standup settings' }).click();
      await page.getByRole('status').filter({ hasText: 'Standup settings saved.' }).waitFor();
      const settings = await api('GET', '/api/v1/standups/settings/');
      expect(settings).toMatchObject({
        timezone: 'Europe/Berlin',
        reminder_time: '10:15',
        days: ['mon', 'tue', 'wed', 'thu', 'sat'],
      });
      expect(settings.questions).toHaveLength(3);
      expect(settings.questions.slice(1)).toEqual(['What will you do next?', 'Anything to celebrate?']);
      // An unknown timezone is refused with the service's message.
      await form.getByLabel('Timezone').fill('Mars/Olympus');
      await form.getByRole('button', { name: 'Save standup settings' }).click();
      await form
        .getByRole('alert')
        .filter({ hasText: /request id/ })
        .waitFor();
      expect((await api('GET', '/api/v1/standups/settings/')).timezone).toBe('Europe/Berlin');
    });

    it('is usable at 390 px wide', async () => {
      const { page } = w;
      await page.setViewportSize({ width: 390, height: 800 });
      try {
        for (const path of ['/p/SET/settings', '/t/SET-1', '/standups?tab=settings']) {
          await page.goto(path);
          await page.locator('main h1').first().waitFor();
          await page.waitForLoadState('networkidle');
          expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(390);
        }
        await page.goto('/p/SET/settings');
        await page.getByRole('button', { name: 'Drag Done' }).waitFor();
        await expectAccessible(page, 'project settings at 390 px');
      } finally {
        await page.setViewportSize({ width: 1280, height: 800 });
      }
    });

    it('recovers the live stream after the server refuses it (429), missing no change', async () => {
      const { page, context, baseUrl } = w;
      await page.goto('about:blank');
      const cookie = (await context.cookies(baseUrl)).map((c) => `${c.name}=${c.value}`).join('; ');
      const streams: AbortController[] = [];
      const open = async () => {
        const abort = new AbortController();
        const res = await fetch(`${baseUrl}/api/console/live/`, {
          headers: { cookie, accept: 'text/event-stream' },
          signal: abort.signal,
        });
        if (res.status === 200) streams.push(abort);
        else abort.abort();
        return res.status;
      };
      try {
        // Take every stream the session may hold (the closed page's may take a moment to be let go).
        await eventually(async () => {
          while (streams.length < 5 && (await open()) === 200);
          return streams.length;
        }).toBe(5);
        expect(await open()).toBe(429);

        await page.goto('/p/SET/board');
        await page.getByRole('button', { name: /SET-1 Ship the release/ }).waitFor();
        await page.getByRole('status').filter({ hasText: 'Live updates are interrupted' }).waitFor();
        await expectAccessible(page, 'board with live updates interrupted');
        // Written while the app has no stream: no push carries it, the read after recovery must.
        const created = (await api('POST', '/api/v1/projects/SET/tasks/', { title: 'Written during the outage' })) as {
          key: string;
        };

        for (const s of streams.splice(0)) s.abort();
        await page
          .getByRole('button', { name: new RegExp(`${created.key} Written during the outage`) })
          .waitFor({ timeout: 60_000 });
        await eventually(() =>
          page.getByRole('status').filter({ hasText: 'Live updates are interrupted' }).count(),
        ).toBe(0);
        // And the new stream pushes again.
        const later = (await api('POST', '/api/v1/projects/SET/tasks/', { title: 'Pushed after recovery' })) as {
          key: string;
        };
        await page
          .getByRole('button', { name: new RegExp(`${later.key} Pushed after recovery`) })
          .waitFor({ timeout: 60_000 });
      } finally {
        for (const s of streams) s.abort();
      }
    });
  },
);
