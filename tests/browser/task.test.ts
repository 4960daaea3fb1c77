import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { PASSWORD } from '../helpers/people.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

// A browser on a loaded machine is slow; the actions' own 30 s waits are the real bounds.
describe.skipIf(skipReason !== null)(
  'task, list, search, my work and standups in Chromium',
  { timeout: 180_000 },
  () => {
    let w: BrowserWorld;
    let owner: SignedIn;
    const api = (method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) =>
      w.h.request(method, url, { token: owner.bot.token, body });
    beforeAll(async () => {
      w = await openWorld();
      owner = await signIn(w);
      await w.h.project(owner.bot, 'OPS', 'Operations');
      await w.h.addMember('OPS', owner.userId, 'admin');
      for (const title of ['Rotate the certificates', 'Renew the domain']) {
        expect(
          (await api('POST', '/api/v1/projects/OPS/tasks/', { title, description: 'Check **both** hosts' })).status,
        ).toBe(201);
      }
      expect((await api('PUT', '/api/v1/tasks/OPS-1/', { status: 'In Progress' })).status).toBe(200);
    });
    afterAll(async () => w?.close());

    it('edits a task with If-Match and resolves a conflicting change by re-applying', async () => {
      const { page } = w;
      await page.goto('/t/OPS-1');
      await page.getByRole('heading', { name: /Rotate the certificates/ }).waitFor();
      expect(await page.locator('.markdown strong').textContent()).toBe('both');
      await expectAccessible(page, 'task');
      await page.keyboard.press('e');
      await page.getByLabel('Title', { exact: true }).fill('Rotate the TLS certificates');
      // Meanwhile someone else changes the title and the priority.
      expect(
        (await api('PUT', '/api/v1/tasks/OPS-1/', { title: 'Rotate certs (urgent)', priority: 'Urgent' })).status,
      ).toBe(200);
      await page.getByLabel('Title', { exact: true }).press('Enter');
      const conflict = page.getByRole('alert').filter({ hasText: 'Someone changed this task' });
      await conflict.waitFor();
      expect(await conflict.getByRole('row', { name: /Title/ }).textContent()).toContain('Rotate certs (urgent)');
      expect(await conflict.getByRole('row', { name: /Priority/ }).textContent()).toContain('Urgent');
      await expectAccessible(page, 'task conflict');
      await conflict.getByRole('button', { name: 'Re-apply my changes' }).click();
      await page.getByRole('heading', { name: /Rotate the TLS certificates/ }).waitFor();
      const saved = (await api('GET', '/api/v1/tasks/OPS-1/')).body.data;
      expect(saved).toMatchObject({ title: 'Rotate the TLS certificates', priority: 'Urgent' });
    });

    it('offers only the statuses the workflow allows, previews markdown and comments', async () => {
      const { page } = w;
      await expect
        .poll(async () => (await page.getByLabel('Status').locator('option').allTextContents()).sort())
        .toEqual(['Done', 'In Progress', 'In Review', 'To Do']);
      await page.goto('/t/OPS-2');
      await page.getByRole('heading', { name: /Renew the domain/ }).waitFor();
      await expect
        .poll(async () => (await page.getByLabel('Status').locator('option').allTextContents()).sort())
        .toEqual(['In Progress', 'To Do']);
      await page.getByRole('button', { name: 'Edit description' }).click();
      await page.getByLabel('Description', { exact: true }).fill('Use the _registrar_ panel');
      await page.getByRole('button', { name: 'Preview' }).click();
      expect(await page.locator('.preview em').textContent()).toBe('registrar');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.locator('.description em', { hasText: 'registrar' }).waitFor();
      expect((await api('GET', '/api/v1/tasks/OPS-2/')).body.data.description).toBe('Use the _registrar_ panel');
      await page.getByLabel('Add a comment').fill('Done for **example.org**');
      await page.getByRole('button', { name: 'Comment' }).click();
      await page.locator('.comments strong', { hasText: 'example.org' }).waitFor();
      expect(
        (await api('GET', '/api/v1/tasks/OPS-2/comments/')).body.data.map((c: { body: string }) => c.body),
      ).toEqual(['Done for **example.org**']);
    });

    it('bulk edits from the list, showing each refused item, then applies a change to all', async () => {
      const { page } = w;
      await page.goto('/p/OPS/list');
      await page.getByRole('link', { name: 'OPS-2' }).waitFor();
      await expectAccessible(page, 'list');
      await page.getByLabel('Select all shown tasks').check();
      await page.getByRole('region', { name: 'Bulk edit' }).getByLabel('Status').selectOption('Done');
      // OPS-1 may go from In Progress to Done; OPS-2 may not from To Do, so nothing changes.
      const itemError = page.getByRole('row', { name: /OPS-2/ }).getByRole('alert');
      await itemError.waitFor();
      expect(await itemError.textContent()).toMatch(/To Do.*Done|Done.*To Do/);
      await page.getByRole('alert').filter({ hasText: 'Nothing was changed' }).waitFor();
      expect((await api('GET', '/api/v1/tasks/OPS-1/')).body.data.status).toBe('In Progress');
      await page.getByRole('region', { name: 'Bulk edit' }).getByLabel('Status').selectOption('In Progress');
      await page.getByRole('status').filter({ hasText: 'Updated 2 tasks.' }).waitFor();
      const list = (await api('GET', '/api/v1/projects/OPS/tasks/')).body.data.map((t: { status: string }) => t.status);
      expect(list).toEqual(['In Progress', 'In Progress']);
    });

    it('searches from anywhere with / and opens the result with Enter', async () => {
      const { page } = w;
      await page.locator('main').click({ position: { x: 5, y: 5 } });
      await page.keyboard.press('/');
      const dialog = page.getByRole('dialog', { name: 'Search' });
      await dialog.getByRole('combobox', { name: 'Search tasks' }).fill('domain');
      await dialog.getByRole('option', { name: /OPS-2/ }).waitFor();
      await expectAccessible(page, 'search');
      await page.keyboard.press('Enter');
      await page.waitForURL('**/t/OPS-2');
    });

    it('shows the shortcuts, my work and standups screens', async () => {
      const { page } = w;
      await page.keyboard.press('?');
      await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
      await expectAccessible(page, 'shortcuts');
      await page.keyboard.press('Escape');
      await page.getByRole('link', { name: 'My work' }).click();
      await page.getByRole('heading', { name: 'My work' }).waitFor();
      await expectAccessible(page, 'my work');
      await page.getByRole('link', { name: 'Standups' }).click();
      await page.getByRole('heading', { name: /Today/ }).waitFor();
      await expectAccessible(page, 'standups');
    });

    it('links tasks and shows a refused loop, attaches a file with progress, logs time', async () => {
      const { page } = w;
      await page.goto('/t/OPS-1');
      await page.getByLabel('This task').selectOption('blocks');
      await page.getByLabel('Other task').fill('OPS-2');
      await page.getByRole('button', { name: 'Add link' }).click();
      await page.getByRole('button', { name: 'Remove link to OPS-2' }).waitFor();
      await page.goto('/t/OPS-2');
      await page.getByRole('button', { name: 'Remove link to OPS-1' }).waitFor();
      await page.getByLabel('This task').selectOption('blocks');
      await page.getByLabel('Other task').fill('OPS-1');
      await page.getByRole('button', { name: 'Add link' }).click();
      await page.getByRole('alert').filter({ hasText: 'The loop it would close: OPS-2 → OPS-1 → OPS-2' }).waitFor();
      expect((await api('GET', '/api/v1/tasks/OPS-2/links/')).body.data).toHaveLength(1);

      await page
        .getByLabel('Attach a file')
        .setInputFiles({ name: 'runbook.txt', mimeType: 'text/plain', buffer: Buffer.from('step 1: breathe\n') });
      await page.getByRole('link', { name: 'runbook.txt' }).waitFor();
      const [attachment] = (await api('GET', '/api/v1/tasks/OPS-2/attachments/')).body.data;
      expect(attachment).toMatchObject({ filename: 'runbook.txt', size: 16 });
      const download = await page.evaluate(
        async (id) => (await fetch(`/api/v1/attachments/${id}/content/`)).text(),
        attachment.id,
      );
      expect(download).toBe('step 1: breathe\n');

      await page.getByLabel('Minutes').fill('45');
      await page.getByLabel('Note', { exact: true }).fill('renewal call');
      await page.getByRole('button', { name: 'Log time' }).click();
      await page.getByText('45 min on').waitFor();
      expect((await api('GET', '/api/v1/tasks/OPS-2/')).body.data.time_spent_minutes).toBe(45);
      await expectAccessible(page, 'task with links, files and time');
    });

    it('signs out, sends the next visit to sign-in, and refuses a wrong password with the reason', async () => {
      const { page } = w;
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await expectAccessible(page, 'sign in');
      await page.goto('/p/OPS/board');
      await page.waitForURL('**/sign-in?next=%2Fp%2FOPS%2Fboard');
      await page.getByLabel('E-mail').fill(owner.email);
      await page.getByLabel('Password').fill('not the password');
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('alert').filter({ hasText: 'Wrong e-mail or password.' }).waitFor();
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL('**/p/OPS/board');
      await page.getByRole('button', { name: /OPS-1/ }).waitFor();
    });
  },
);
