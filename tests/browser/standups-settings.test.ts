import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';
import { signIn, type SignedIn } from './session.ts';
import { deliverDue } from '../../src/modules/webhooks/delivery/deliver-due.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
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

  it('opens the standup digest’s link with today’s check-in drafted, once', async () => {
    const { page } = w;
    // The day after the submitted one: nothing written yet.
    await page.goto('/standups?tab=me&prefill=1');
    await page.getByRole('heading', { name: /Today.*draft/ }).waitFor();
    await page.waitForURL((url) => url.search === '?tab=me');
    expect(await page.getByLabel('Doing today').inputValue()).toContain('STD-1 Retire the mail server (In Progress)');
    // A check-in already written is left as it is.
    await page.getByLabel('Doing today').fill('- My own words');
    await page.getByRole('button', { name: 'Submit check-in' }).click();
    await page.getByRole('heading', { name: /Today.*submitted/ }).waitFor();
    await page.goto('/standups?tab=me&prefill=1');
    await page.waitForURL((url) => url.search === '?tab=me');
    await page.getByRole('heading', { name: /Today.*submitted/ }).waitFor();
    expect(await page.getByLabel('Doing today').inputValue()).toBe('- My own words');
  });

  it('creates an API token shown once, and revoking it makes the API refuse it', async () => {
    const { page } = w;
    // Settings opens on the organization's people, each section at its own address.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.waitForURL('**/settings/people');
    const sections = page.getByRole('navigation', { name: 'Settings' });
    // Settings loads as its own chunk: the address changes before its sections show.
    await sections.getByRole('link', { name: 'Profile' }).waitFor();
    expect(await sections.getByRole('link').allTextContents()).toEqual([
      'Profile',
      'Appearance',
      'People',
      'Invitations',
      'API tokens',
      'Webhooks',
      'Sign-in',
      'Audit log',
      'Project settings',
    ]);
    // The old notices section is the inbox now, where a disabled webhook endpoint arrives.
    await page.goto('/settings/notifications');
    await page.waitForURL('**/inbox');
    await page.goto('/settings/people');
    await page.getByLabel('New service account').fill('ci-bot');
    await page.getByRole('button', { name: 'Create service account' }).click();
    await page.getByRole('cell', { name: 'ci-bot', exact: true }).waitFor();
    await sections.getByRole('link', { name: 'API tokens' }).click();
    await page.waitForURL('**/settings/tokens');
    expect(await sections.getByRole('link', { name: 'API tokens' }).getAttribute('aria-current')).toBe('page');
    await page.getByRole('heading', { name: 'API tokens' }).waitFor();
    await page.getByLabel('Token name').fill('deploys');
    await page.getByLabel('Service account', { exact: true }).selectOption({ label: 'ci-bot' });
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = await page.locator('.secret code').textContent();
    expect(secret).toMatch(/^tt_/);
    expect((await api('GET', '/api/v1/me/', undefined, secret!)).status).toBe(200);
    await expectAccessible(page, 'API tokens settings');
    await page.getByRole('button', { name: 'Revoke deploys' }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke the token “deploys”?' });
    await confirm.getByRole('button', { name: 'Revoke the token' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByRole('status').filter({ hasText: 'Token revoked.' }).waitFor();
    expect((await api('GET', '/api/v1/me/', undefined, secret!)).status).toBe(401);
  });

  it('invites a person to a project with a link shown once, cancels only after asking, and lists this session on the profile', async () => {
    const { page } = w;
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Invitations' }).click();
    await page.waitForURL('**/settings/invitations');
    await page.getByLabel('E-mail').fill('grace@example.test');
    await page.getByRole('checkbox', { name: 'Standup demo (STD)' }).check();
    await page.getByLabel('Role in Standup demo').selectOption('viewer');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    const link = await page
      .locator('.secret', { hasText: 'Invitation link for grace@example.test, joining Standup demo as viewer' })
      .locator('code')
      .textContent();
    expect(link).toMatch(/\/invite#token=/);
    await page.getByText(/grace@example\.test as member, joining Standup demo as viewer, expires/).waitFor();
    await expectAccessible(page, 'invitations');

    await page.getByLabel('E-mail').fill('linus@example.test');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await page.getByRole('button', { name: 'Cancel invitation for linus@example.test' }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancel the invitation for linus@example.test?' });
    await confirm.getByText('stops working at once').waitFor();
    await expectAccessible(page, 'cancel invitation dialog');
    await confirm.getByRole('button', { name: 'Cancel the invitation' }).click();
    await page.getByRole('button', { name: 'Cancel invitation for linus@example.test' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Cancel invitation for grace@example.test' }).waitFor();

    await page.getByRole('link', { name: 'Profile' }).click();
    await page.waitForURL('**/settings/profile');
    await page.getByRole('cell', { name: /this one/ }).waitFor();
    await expectAccessible(page, 'profile');
  });

  it('creates a webhook endpoint, sends a test, shows the delivery and its attempts, and replays it', async () => {
    const { page } = w;
    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Webhooks' }).click();
    await page.waitForURL('**/settings/webhooks');
    await page.getByLabel('Receiver URL').fill(receiver.url('/hook'));
    await page.getByLabel('task.created').check();
    await page.getByRole('button', { name: 'Create endpoint' }).click();
    // The signing secret shows on the new endpoint's own card.
    const card = page.locator('.endpoint', { hasText: receiver.url('/hook') });
    const secret = await card.locator('.secret', { hasText: 'Signing secret' }).locator('code').textContent();
    expect(secret?.length).toBeGreaterThan(20);
    await card.getByRole('link', { name: receiver.url('/hook') }).click();
    await page.waitForURL(/\/settings\/webhooks\/\d+$/);
    await page.getByRole('button', { name: 'Send a test event' }).click();
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
    await page.getByText(/Attempt 1, .*HTTP 200 in \d+ ms/).waitFor();
    await expectAccessible(page, 'webhook endpoint');
    await page.getByLabel('Delivery status').selectOption('failed');
    await page.getByText('No deliveries with status failed.').waitFor();
    await page.getByLabel('Delivery status').selectOption('');
    await page.getByLabel('Event', { exact: true }).selectOption('task.created');
    await row.waitFor({ state: 'detached' });
    await page.getByLabel('Event', { exact: true }).selectOption('webhook.test');
    await row.getByRole('button', { name: /Replay delivery/ }).click();
    await page.getByRole('row', { name: /replay of #/ }).waitFor({ timeout: 15_000 });
    await fanOut(w.h.ctx);
    await deliverDue(w.h.ctx, log);
    expect(receiver.requests).toHaveLength(delivered + 1);
  });

  it('edits, disables, re-enables and, after asking, deletes the endpoint', async () => {
    const { page } = w;
    const id = Number(/\/settings\/webhooks\/(\d+)$/.exec(page.url())![1]);
    const stored = async () => (await api('GET', `/api/v1/webhooks/endpoints/${id}/`)).body.data;
    await page.getByRole('button', { name: 'Edit endpoint' }).click();
    const form = page.getByRole('form', { name: 'Edit endpoint' });
    await form.getByLabel('Endpoint description').fill('Bugs to the chat');
    await form.getByLabel('Only tasks matching').fill('label = bug AND');
    await form.getByRole('button', { name: 'Save' }).click();
    // A query that cannot run is refused and explained; nothing is changed.
    await form
      .getByRole('alert')
      .filter({ hasText: /INVALID_QUERY|query/i })
      .waitFor();
    expect((await stored()).description).toBe('');
    await form.getByLabel('Only tasks matching').fill('label = bug');
    await form.getByLabel('Message format').selectOption('slack');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'Endpoint saved.' }).waitFor();
    await page.getByText('Only tasks matching label = bug').waitFor();
    await page.getByText('Posts as: Slack').waitFor();
    expect(await stored()).toMatchObject({
      description: 'Bugs to the chat',
      filter: 'label = bug',
      format: 'slack',
      enabled: true,
    });

    await page.getByRole('button', { name: 'Disable endpoint' }).click();
    await page.getByRole('button', { name: 'Re-enable endpoint' }).waitFor();
    await page.locator('.state-off', { hasText: 'Disabled' }).waitFor();
    expect((await stored()).enabled).toBe(false);
    await page.getByRole('button', { name: 'Re-enable endpoint' }).click();
    await page.getByRole('button', { name: 'Disable endpoint' }).waitFor();
    expect((await stored()).enabled).toBe(true);

    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    const confirm = page.getByRole('dialog', { name: `Delete the endpoint ${receiver.url('/hook')}?` });
    await confirm.getByText('its delivery log and signing secret are gone for good').waitFor();
    await expectAccessible(page, 'delete endpoint dialog');
    await page.keyboard.press('Enter');
    await confirm.waitFor({ state: 'hidden' });
    expect((await api('GET', `/api/v1/webhooks/endpoints/${id}/`)).status).toBe(200);
    await page.getByRole('button', { name: 'Delete endpoint' }).click();
    await confirm.getByRole('button', { name: 'Delete the endpoint' }).click();
    await page.waitForURL('**/settings/webhooks');
    await page.getByText('No endpoints yet').waitFor();
    expect((await api('GET', `/api/v1/webhooks/endpoints/${id}/`)).status).toBe(404);
  });

  it('pages through a delivery log longer than a page, newest first', async () => {
    const { page } = w;
    const created = await api('POST', '/api/v1/webhooks/endpoints/', {
      url: receiver.url('/paged'),
      description: 'Paged log',
      events: ['task.created'],
    });
    expect(created.status).toBe(201);
    const id: number = created.body.data.id;
    const sent: number[] = [];
    for (let i = 0; i < 53; i++) {
      const test = await api('POST', `/api/v1/webhooks/endpoints/${id}/test/`);
      expect(test.status).toBe(201);
      sent.push(test.body.data.id);
    }
    const newestFirst = [...sent].reverse();
    const shownIds = async () =>
      (await page.getByRole('button', { name: /^Attempts of delivery \d+$/ }).allTextContents()).map((t) =>
        Number(/\d+$/.exec(t)![0]),
      );
    await page.goto(`/settings/webhooks/${id}`);
    const pager = page.getByRole('navigation', { name: 'Delivery log pages' });
    await pager.getByText('1–50 of 53, page 1 of 2').waitFor();
    expect(await shownIds()).toEqual(newestFirst.slice(0, 50));
    expect(await pager.getByRole('button', { name: 'Newer' }).isDisabled()).toBe(true);
    await pager.getByRole('button', { name: 'Older' }).click();
    await pager.getByText('51–53 of 53, page 2 of 2').waitFor();
    expect(await shownIds()).toEqual(newestFirst.slice(50));
    expect(await pager.getByRole('button', { name: 'Older' }).isDisabled()).toBe(true);
    await expectAccessible(page, 'webhook endpoint, second page of its log');
    await pager.getByRole('button', { name: 'Newer' }).click();
    await pager.getByText('1–50 of 53, page 1 of 2').waitFor();
    expect(await shownIds()).toEqual(newestFirst.slice(0, 50));
    // A filter starts from the newest deliveries again; one page needs no pager.
    await pager.getByRole('button', { name: 'Older' }).click();
    await pager.getByText('page 2 of 2').waitFor();
    await page.getByLabel('Event', { exact: true }).selectOption('task.created');
    await page.getByText('No deliveries of task.created.').waitFor();
    expect(await pager.count()).toBe(0);
    await page.getByLabel('Event', { exact: true }).selectOption('webhook.test');
    await pager.getByText('1–50 of 53, page 1 of 2').waitFor();
  });
});
