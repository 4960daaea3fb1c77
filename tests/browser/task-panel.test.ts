import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

// A browser on a loaded machine is slow; the actions' own 30 s waits are the real bounds.
describe.skipIf(skipReason !== null)(
  'the task beside the board, edited in place, in Chromium',
  { timeout: 240_000 },
  () => {
    let w: BrowserWorld;
    let owner: SignedIn;
    const api = async (method: 'POST' | 'PUT' | 'GET', url: string, body?: unknown) => {
      const res = await w.h.request(method, url, { token: owner.bot.token, body });
      expect(res.status, res.text).toBeLessThan(300);
      return res.body.data;
    };
    const task = (key: string) => api('GET', `/api/v1/tasks/${key}/`);
    /** The app's writes to the task from now on, with the version each was sent against. */
    const writes = () => {
      const seen: Array<{ method: string; ifMatch: string | undefined }> = [];
      w.page.on('request', (request) => {
        if (request.method() === 'PUT' && new URL(request.url()).pathname === '/api/v1/tasks/PAN-1/')
          seen.push({ method: request.method(), ifMatch: request.headers()['if-match'] });
      });
      return seen;
    };

    beforeAll(async () => {
      w = await openWorld();
      owner = await signIn(w);
      await w.h.project(owner.bot, 'PAN', 'Panels');
      await w.h.addMember('PAN', owner.userId, 'admin');
      await api('POST', '/api/v1/projects/PAN/tasks/', { title: 'Plan the launch' });
      await api('POST', '/api/v1/projects/PAN/tasks/', { title: 'Book the venue' });
      await api('POST', '/api/v1/projects/PAN/labels/', { name: 'marketing' });
      await api('POST', '/api/v1/projects/PAN/sprints/', { name: 'Sprint 7' });
      await api('POST', '/api/v1/projects/PAN/milestones/', { name: 'Public beta' });
    });
    afterAll(async () => w?.close());

    it('opens a card as a panel beside the board, with its own URL, and closes it with Escape', async () => {
      const { page } = w;
      await page.goto('/p/PAN/board');
      await page.getByRole('button', { name: /PAN-1 Plan the launch/ }).click();
      const panel = page.getByRole('complementary', { name: 'Task PAN-1' });
      await panel.getByRole('heading', { name: /Plan the launch/ }).waitFor();
      expect(new URL(page.url()).searchParams.get('task')).toBe('PAN-1');
      // The board stays under it.
      expect(await page.getByRole('region', { name: 'To Do' }).isVisible()).toBe(true);
      await expectAccessible(page, 'task panel');
      await page.keyboard.press('Escape');
      await panel.waitFor({ state: 'detached' });
      expect(new URL(page.url()).searchParams.get('task')).toBe(null);
      await page.goBack();
      await panel.waitFor();
      expect(await panel.getByRole('link', { name: 'Open as a page' }).getAttribute('href')).toBe('/t/PAN-1');
    });

    it('edits every field where it shows, saving each change at once with If-Match', async () => {
      const { page } = w;
      const panel = page.getByRole('complementary', { name: 'Task PAN-1' });
      const sent = writes();

      await panel.getByRole('button', { name: /Assignee/ }).click();
      await page.keyboard.type('ada');
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await task('PAN-1')).assignee).toBe(owner.userId);
      await panel
        .getByRole('button', { name: /Assignee/ })
        .getByRole('img', { name: 'Ada Lovelace' })
        .waitFor();

      // Labels: one chosen from the list, one created on the fly.
      await panel.getByRole('button', { name: /Labels/ }).click();
      await page.keyboard.type('mark');
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await task('PAN-1')).labels).toEqual(['marketing']);
      await page.getByRole('combobox', { name: 'Search labels' }).fill('press');
      await panel.getByRole('option', { name: 'Create “press”' }).click();
      await expect.poll(async () => (await task('PAN-1')).labels).toEqual(['marketing', 'press']);
      await page.keyboard.press('Escape');

      await panel.getByRole('button', { name: /Sprint/ }).click();
      await page.keyboard.type('7');
      await page.keyboard.press('Enter');
      await panel.getByRole('button', { name: /Milestone/ }).click();
      await panel.getByRole('option', { name: 'Public beta' }).click();
      await expect
        .poll(async () => {
          const t = await task('PAN-1');
          return [t.sprint !== null, t.milestone !== null];
        })
        .toEqual([true, true]);

      // The parent among the project's tasks, found by its words.
      await panel.getByRole('button', { name: /Parent/ }).click();
      await page.keyboard.type('venue');
      await panel.getByRole('option', { name: 'PAN-2 Book the venue' }).click();
      await expect.poll(async () => (await task('PAN-1')).parent).toBe('PAN-2');

      await panel.getByLabel('Priority').selectOption('High');
      await expect.poll(async () => (await task('PAN-1')).priority).toBe('High');
      await panel.getByLabel('Due date').fill('2027-03-01');
      await expect.poll(async () => (await task('PAN-1')).due_date).toBe('2027-03-01');

      // The title in place: a click, a new title, Enter.
      await panel.getByRole('button', { name: 'Plan the launch' }).click();
      await panel.getByLabel('Title', { exact: true }).fill('Plan the public launch');
      await page.keyboard.press('Enter');
      await panel.getByRole('heading', { name: /Plan the public launch/ }).waitFor();
      expect((await task('PAN-1')).title).toBe('Plan the public launch');

      // The status offers only the moves the workflow allows from To Do.
      expect((await panel.getByLabel('Status').locator('option').allTextContents()).sort()).toEqual([
        'In Progress',
        'To Do',
      ]);
      expect(sent.length).toBeGreaterThanOrEqual(8);
      for (const write of sent) expect(write.ifMatch).toMatch(/^"v\d+"$/);
      await expectAccessible(page, 'task panel edited');
    });

    it('opens a task beside the list too', async () => {
      const { page } = w;
      await page.goto('/p/PAN/list');
      await page.getByRole('link', { name: 'PAN-2', exact: true }).click();
      const panel = page.getByRole('complementary', { name: 'Task PAN-2' });
      await panel.getByRole('heading', { name: /Book the venue/ }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/p/PAN/list');
      await panel.getByRole('button', { name: 'Close the task' }).click();
      await panel.waitFor({ state: 'detached' });
    });
  },
);
