import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';
import { deliverDue } from '../../src/worker/deliver-due.ts';
import { fanOut } from '../../src/worker/fan-out.ts';
import {
  captureLogger,
  createWebhookHarness,
  startReceiver,
  type Receiver,
  type WebhookHarness,
} from '../helpers/webhooks.ts';

noteSkip();

// A browser on a loaded machine is slow; the actions' own 30 s waits are the real bounds.
describe.skipIf(skipReason !== null)('standups and settings in Chromium', { timeout: 180_000 }, () => {
  let w: BrowserWorld & { h: WebhookHarness };
  let owner: SignedIn;
  let receiver: Receiver;
  const api = (method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown, token = owner.bot.token) =>
    w.h.request(method, url, { token, body });
  beforeAll(async () => {
    // Webhook receivers here listen on loopback; the test resolver maps hooks.test to it.
    w = await openWorld(() => createWebhookHarness({ allowPrivate: true }));
    receiver = await startReceiver();
    owner = await signIn(w);
    await w.h.project(owner.bot, 'STD', 'Standup demo');
    await w.h.addMember('STD', owner.userId, 'member');
    expect(
      (await api('POST', '/api/v1/projects/STD/tasks/', { title: 'Migrate the mail server', assignee: owner.userId }))
        .status,
    ).toBe(201);
    expect((await api('PUT', '/api/v1/tasks/STD-1/', { status: 'In Progress' })).status).toBe(200);
  });
  afterAll(async () => {
    await receiver?.close();
    await w?.close();
  });

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
      expect.objectContaining({
        user: owner.userId,
        state: 'submitted',
        done: '- Moved DNS',
        blockers: [{ text: 'Waiting for the new certificate', task: 'STD-1' }],
      }),
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
    // The token created before is still shown on this screen: wait for the invitation's own link.
    const link = await page
      .locator('.secret', { hasText: 'Invitation link for grace@example.test' })
      .locator('code')
      .textContent();
    expect(link).toMatch(/\/invite#token=/);
    await page.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('cell', { name: /this one/ }).waitFor();
    await expectAccessible(page, 'profile');
  });

  it('creates a webhook endpoint, sends a test, shows the delivery and its attempts, and replays it', async () => {
    const { page } = w;
    await page.getByRole('link', { name: 'Organization' }).click();
    await page.getByLabel('Receiver URL').fill(receiver.url('/hook'));
    await page.getByLabel('task.created').check();
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    const secret = await page.locator('.secret', { hasText: 'Signing secret' }).locator('code').textContent();
    expect(secret?.length).toBeGreaterThan(20);
    await page.getByRole('button', { name: `Send a test to ${receiver.url('/hook')}` }).click();
    await page.getByRole('status').filter({ hasText: 'Test event queued.' }).waitFor();
    const { log } = captureLogger();
    await fanOut(w.h.ctx);
    await deliverDue(w.h.ctx, log);
    // The outbox's earlier task.created is delivered too: the endpoint spans every project.
    const delivered = receiver.requests.length;
    expect(delivered).toBeGreaterThanOrEqual(1);
    const row = page.getByRole('row', { name: /\(test\) delivered/ });
    await row.waitFor({ timeout: 15_000 });
    await row.getByRole('button', { name: /Attempts of delivery/ }).click();
    await page.getByText(/HTTP 200 in \d+ ms/).waitFor();
    await expectAccessible(page, 'webhooks');
    await page.getByLabel('Delivery status').selectOption('failed');
    await page.getByText('No deliveries with status failed.').waitFor();
    await page.getByLabel('Delivery status').selectOption('');
    await row.getByRole('button', { name: /Replay delivery/ }).click();
    await page.getByRole('row', { name: /replay of #/ }).waitFor({ timeout: 15_000 });
    await fanOut(w.h.ctx);
    await deliverDue(w.h.ctx, log);
    expect(receiver.requests).toHaveLength(delivered + 1);
  });
});
