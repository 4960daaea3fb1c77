import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';

noteSkip();

describe.skipIf(skipReason !== null)('standups and settings in Chromium', () => {
  let w: BrowserWorld;
  let owner: SignedIn;
  const api = (method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown, token = owner.bot.token) => w.h.request(method, url, { token, body });
  beforeAll(async () => {
    w = await openWorld();
    owner = await signIn(w);
    await w.h.project(owner.bot, 'STD', 'Standup demo');
    await w.h.addMember('STD', owner.userId, 'member');
    expect((await api('POST', '/api/v1/projects/STD/tasks/', { title: 'Migrate the mail server', assignee: owner.userId })).status).toBe(201);
    expect((await api('PUT', '/api/v1/tasks/STD-1/', { status: 'In Progress' })).status).toBe(200);
  });
  afterAll(async () => w?.close());

  it('redrafts, skips, redrafts again and submits a check-in with a blocker', async () => {
    const { page } = w;
    await page.getByRole('link', { name: 'Standups' }).click();
    await page.getByRole('heading', { name: /Today.*not started/ }).waitFor();
    await page.getByRole('button', { name: 'Redraft from my activity' }).click();
    await page.getByRole('heading', { name: /Today.*draft/ }).waitFor();
    expect(await page.getByLabel('Doing today').inputValue()).toContain('STD-1 Migrate the mail server (In Progress)');
    await page.getByRole('button', { name: 'Skip today' }).click();
    await page.getByRole('heading', { name: /Today.*skipped/ }).waitFor();
    await page.getByRole('button', { name: 'Redraft from my activity' }).click();
    await page.getByRole('heading', { name: /Today.*draft/ }).waitFor();
    await page.getByLabel('Done since last time').fill('- Moved DNS');
    await page.getByRole('button', { name: 'Add a blocker' }).click();
    await page.getByLabel('Blocker 1').fill('Waiting for the new certificate');
    await page.getByLabel('Task (optional)').fill('STD-1');
    await page.getByRole('button', { name: 'Submit check-in' }).click();
    await page.getByRole('heading', { name: /Today.*submitted/ }).waitFor();
    await page.getByRole('heading', { name: 'Worklist as submitted' }).waitFor();
    expect((await api('GET', '/api/v1/standups/?date=2026-11-21')).body.data).toEqual([
      expect.objectContaining({ user: owner.userId, state: 'submitted', done: '- Moved DNS', blockers: [{ text: 'Waiting for the new certificate', task: 'STD-1' }] }),
    ]);
    await expectAccessible(page, 'standup check-in');
    await page.getByRole('link', { name: 'Blockers' }).click();
    await page.getByText('Waiting for the new certificate').waitFor();
    await expectAccessible(page, 'standup blockers');
  });

  it('shows the day frozen in history: later renames leave it as submitted', async () => {
    const { page } = w;
    expect((await api('PUT', '/api/v1/tasks/STD-1/', { title: 'Retire the mail server' })).status).toBe(200);
    w.h.clock.advance(24 * 3600_000);
    await page.getByRole('link', { name: 'History' }).click();
    const entry = page.getByRole('article', { name: /Ada Lovelace, Nov 21, 2026/ });
    await entry.getByText('Worklist (1)').click();
    await entry.locator('details li', { hasText: 'STD-1 Migrate the mail server' }).waitFor();
    expect(await entry.getByText('Retire the mail server').count()).toBe(0);
    await expectAccessible(page, 'standup history');
    await page.getByRole('link', { name: 'Team day' }).click();
    await page.getByRole('heading', { name: "The team's day" }).waitFor();
    await expectAccessible(page, 'team day');
  });

  it('creates an API token shown once, and revoking it makes the API refuse it', async () => {
    const { page } = w;
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    await page.getByLabel('New service account').fill('ci-bot');
    await page.getByRole('button', { name: 'Create service account' }).click();
    await page.getByRole('cell', { name: 'ci-bot', exact: true }).waitFor();
    await page.getByLabel('Token name').fill('deploys');
    await page.getByLabel('Service account', { exact: true }).selectOption({ label: 'ci-bot' });
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = await page.locator('.secret code').textContent();
    expect(secret).toMatch(/^tt_/);
    expect((await api('GET', '/api/v1/me/', undefined, secret!)).status).toBe(200);
    await expectAccessible(page, 'organization settings');
    await page.getByRole('button', { name: 'Revoke deploys' }).click();
    await page.getByRole('status').filter({ hasText: 'Token revoked.' }).waitFor();
    expect((await api('GET', '/api/v1/me/', undefined, secret!)).status).toBe(401);
  });

  it('invites a person with a link shown once, and lists this session on the profile', async () => {
    const { page } = w;
    await page.getByLabel('E-mail').fill('grace@example.test');
    await page.getByRole('button', { name: 'Invite' }).click();
    const link = await page.locator('.secret code').first().textContent();
    expect(link).toMatch(/\/invite#token=/);
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('cell', { name: /this one/ }).waitFor();
    await expectAccessible(page, 'profile');
  });
});
