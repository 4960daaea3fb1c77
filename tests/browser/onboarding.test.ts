import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/modules/accounts/accounts.service.ts';
import { setPassword } from '../../src/modules/people/people.service.ts';
import { PASSWORD } from '../helpers/people.ts';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

// A browser on a loaded machine is slow; the actions' own 30 s waits are the real bounds.
describe.skipIf(skipReason !== null)('first use in Chromium', { timeout: 180_000 }, () => {
  let w: BrowserWorld;
  let owner: SignedIn;
  beforeAll(async () => {
    w = await openWorld();
  });
  afterAll(async () => w?.close());

  it('fills the organization slug from its name and checks what is typed into it', async () => {
    const { page } = w;
    // No organization yet: the setup screen shows its form.
    await page.goto('/setup');
    await page.getByLabel('Organization name').fill('Ährenfeld Labs & Co.');
    const slug = page.getByLabel('Organization slug');
    expect(await slug.inputValue()).toBe('ahrenfeld-labs-co');
    const mismatch = () => slug.evaluate((input: HTMLInputElement) => input.validity.patternMismatch);
    expect(await mismatch()).toBe(false);
    await slug.fill('Not A Slug');
    expect(await mismatch()).toBe(true);
    await slug.fill('-leading-dash');
    expect(await mismatch()).toBe(true);
    await slug.fill('acme-2');
    expect(await mismatch()).toBe(false);
    // Once edited by hand, the slug no longer follows the name.
    await page.getByLabel('Organization name').fill('Something else');
    expect(await slug.inputValue()).toBe('acme-2');
  });

  it('offers to create the first task on an empty board', async () => {
    owner = await signIn(w);
    const { page } = w;
    await w.h.project(owner.bot, 'NEW', 'Brand new');
    await w.h.addMember('NEW', owner.userId, 'admin');
    await page.goto('/p/NEW/board');
    const empty = page.getByRole('note').filter({ hasText: 'No tasks yet' });
    await empty.waitFor();
    await expectAccessible(page, 'empty board');
    await empty.getByRole('button', { name: 'Create the first task' }).click();
    const dialog = page.getByRole('dialog', { name: 'New task' });
    await dialog.waitFor();
    await page.keyboard.type('The very first');
    await page.keyboard.press('Enter');
    await page
      .getByRole('region', { name: 'To Do' })
      .getByRole('button', { name: /NEW-1 The very first/ })
      .waitFor();
    expect(await empty.count()).toBe(0);
  });

  it('tells an invited person in no project who can add them', async () => {
    const { page, h } = w;
    const member = await createUser(h.ctx, {
      org: owner.org,
      kind: 'human',
      name: 'Grace Hopper',
      email: 'grace@example.test',
      role: 'member',
    });
    await setPassword(h.ctx, member.id, PASSWORD);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/sign-in**');
    await page.getByLabel('E-mail').fill('grace@example.test');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const note = page.getByRole('note').filter({ hasText: 'You are not in any project yet' });
    await note.waitFor();
    await note.getByRole('listitem').filter({ hasText: 'Ada Lovelace' }).waitFor();
    expect(await note.getByRole('link', { name: owner.email }).getAttribute('href')).toBe(`mailto:${owner.email}`);
    // Only the people who can add someone to a project: not Grace herself, nor the service account.
    expect(await note.getByRole('listitem').count()).toBe(1);
    expect(await page.getByText('create the first one below').count()).toBe(0);
    await expectAccessible(page, 'no projects yet');
  });
});
