import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/modules/accounts/accounts.service.ts';
import { notifyAboutEvents } from '../../src/modules/notifications/notify.service.ts';
import { setPassword } from '../../src/modules/people/people.service.ts';
import { PASSWORD } from '../helpers/people.ts';
import { expectAccessible } from './axe.ts';
import { CHROMIUM, noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

describe.skipIf(skipReason !== null)('mentions and the inbox in Chromium', { timeout: 180_000 }, () => {
  let w: BrowserWorld;
  let owner: SignedIn;
  // Bob reads his inbox in a browser of his own, signed in as himself.
  let bobDir: string;
  let bobContext: BrowserContext;
  let bob: Page;
  beforeAll(async () => {
    w = await openWorld();
    owner = await signIn(w);
    await w.h.project(owner.bot, 'OPS', 'Operations');
    await w.h.addMember('OPS', owner.userId, 'admin');
    const bobAccount = await createUser(w.h.ctx, {
      org: owner.org,
      kind: 'human',
      name: 'Bob Builder',
      email: 'bob@example.test',
      role: 'member',
    });
    await setPassword(w.h.ctx, bobAccount.id, PASSWORD);
    await w.h.addMember('OPS', bobAccount.id);
    for (const title of ['Rotate the certificates', 'Renew the domain']) {
      const created = await w.h.request('POST', '/api/v1/projects/OPS/tasks/', {
        token: owner.bot.token,
        body: { title },
      });
      expect(created.status, created.text).toBe(201);
    }

    bobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-chromium-'));
    bobContext = await chromium.launchPersistentContext(bobDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
      baseURL: w.baseUrl,
      viewport: { width: 1280, height: 800 },
    });
    bob = bobContext.pages()[0] ?? (await bobContext.newPage());
    bob.setDefaultTimeout(30_000);
    await bob.goto('/');
    await bob.waitForURL('**/sign-in**');
    await bob.getByLabel('E-mail').fill('bob@example.test');
    await bob.getByLabel('Password').fill(PASSWORD);
    await bob.getByRole('button', { name: 'Sign in' }).click();
    await bob.getByRole('button', { name: 'Sign out' }).waitFor();
  });
  afterAll(async () => {
    await bobContext?.close();
    if (bobDir) fs.rmSync(bobDir, { recursive: true, force: true });
    await w?.close();
  });

  it('completes a mention; the other person’s inbox count rises live, and opening it reads it', async () => {
    const { page } = w;
    await bob.goto('/my-work');
    const bobInbox = bob.getByRole('link', { name: /^Inbox/ });
    await expect.poll(() => bobInbox.getAttribute('aria-label')).toBe('Inbox');

    await page.goto('/t/OPS-1');
    await page.getByRole('heading', { name: /Rotate the certificates/ }).waitFor();
    const comment = page.getByLabel('Add a comment');
    await comment.pressSequentially('Please check this, @bob');
    const suggestion = page.getByRole('option', { name: /@bob Bob Builder/ });
    await suggestion.waitFor();
    await expectAccessible(page, 'mention completion');
    await comment.press('Enter');
    await comment.pressSequentially('after OPS-');
    await page.getByRole('option', { name: /OPS-1 Rotate the certificates/ }).waitFor();
    await page.getByRole('option', { name: /OPS-2 Renew the domain/ }).waitFor();
    await comment.pressSequentially('2');
    await expect.poll(() => page.getByRole('listbox', { name: 'Suggestions' }).getByRole('option').count()).toBe(1);
    await comment.press('Tab');
    expect(await comment.inputValue()).toBe('Please check this, @bob after OPS-2 ');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();
    // The key links to its task.
    await page.locator('.comments li a[href="/t/OPS-2"]', { hasText: 'OPS-2' }).waitFor();

    // The worker's notify job judges the committed comment; Bob's open page hears of it live.
    expect(await notifyAboutEvents(w.h.ctx)).toBeGreaterThan(0);
    await expect.poll(() => bobInbox.getAttribute('aria-label'), { timeout: 60_000 }).toBe('Inbox, 1 unread');
    expect(await bobInbox.locator('.unread-count').textContent()).toBe('1');
    // The writer is not told of their own comment.
    await expect.poll(() => page.getByRole('link', { name: /^Inbox/ }).getAttribute('aria-label')).toBe('Inbox');

    await bobInbox.click();
    const group = bob.getByRole('region', { name: 'OPS-1' });
    const item = group.locator('.inbox-open', { hasText: 'Ada Lovelace mentioned you in a comment on OPS-1' });
    await item.waitFor();
    expect(await item.textContent()).toBe(
      'Unread: Ada Lovelace mentioned you in a comment on OPS-1 “Rotate the certificates”',
    );
    await expectAccessible(bob, 'inbox');
    await item.click();
    await bob.waitForURL(/\/t\/OPS-1#comment-\d+$/);
    await bob.locator('.comments li.target', { hasText: 'Please check this, @bob' }).waitFor();
    await expect.poll(() => bobInbox.getAttribute('aria-label')).toBe('Inbox');

    // The task the comment named shows where it was mentioned.
    await bob.goto('/t/OPS-2');
    await bob.locator('.history li', { hasText: 'Mentioned in OPS-1' }).getByRole('link', { name: 'OPS-1' }).waitFor();
  });

  it('marks all read, and keeps preferences in settings', async () => {
    // One more for Bob: assigned.
    const assigned = await w.h.request('PUT', '/api/v1/tasks/OPS-1/', {
      token: owner.bot.token,
      body: {
        assignee: (
          await w.h.request('GET', '/api/v1/memberships/?limit=200', { token: owner.bot.token })
        ).body.data.find((m: { user_name: string }) => m.user_name === 'Bob Builder').user,
      },
    });
    expect(assigned.status, assigned.text).toBe(200);
    expect(await notifyAboutEvents(w.h.ctx)).toBeGreaterThan(0);
    const bobInbox = bob.getByRole('link', { name: /^Inbox/ });
    await expect.poll(() => bobInbox.getAttribute('aria-label'), { timeout: 60_000 }).toBe('Inbox, 1 unread');
    await bobInbox.click();
    await bob.locator('.inbox-open', { hasText: 'assigned OPS-1 “Rotate the certificates” to you' }).waitFor();
    await bob.getByRole('button', { name: 'Mark all read' }).click();
    await expect.poll(() => bobInbox.getAttribute('aria-label')).toBe('Inbox');
    expect(await bob.locator('.inbox-items li.unread').count()).toBe(0);

    await bob.goto('/settings/profile');
    const commentsByMail = bob.getByLabel('Comments by e-mail');
    await commentsByMail.waitFor();
    expect(await commentsByMail.isChecked()).toBe(false);
    await commentsByMail.click();
    await expect.poll(() => commentsByMail.isChecked()).toBe(true);
    await expectAccessible(bob, 'notification preferences');
    await bob.reload();
    await expect.poll(() => bob.getByLabel('Comments by e-mail').isChecked()).toBe(true);
  });
});
