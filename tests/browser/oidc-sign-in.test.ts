import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createUser } from '../../src/modules/accounts/accounts.service.ts';
import { setPassword } from '../../src/modules/people/people.service.ts';
import { startTestProvider, type TestProvider } from '../helpers/oidc.ts';
import { PASSWORD } from '../helpers/people.ts';
import { expectAccessible } from './axe.ts';
import { noteSkip, openWorld, skipReason, type BrowserWorld } from './browser.ts';

noteSkip();

/**
 * Signing in with an identity provider in Chromium, against a real OpenID provider
 * (oidc-provider on loopback): the button, the provider's page and back, sign-out at the
 * provider, the "ask your admin" page, and an owner's test sign-in.
 */
describe.skipIf(skipReason !== null)('OpenID Connect sign-in in Chromium', { timeout: 180_000 }, () => {
  let w: BrowserWorld;
  let idp: TestProvider;
  const org = `oidc-web-${process.pid}`;

  beforeAll(async () => {
    w = await openWorld();
    idp = await startTestProvider(w.baseUrl);
    await createOrganization(w.h.ctx, { name: 'Acme', slug: org });
    const owner = await createUser(w.h.ctx, {
      org,
      kind: 'human',
      name: 'Olive Owner',
      email: 'olive@example.com',
      role: 'owner',
    });
    await setPassword(w.h.ctx, owner.id, PASSWORD);
    w.h.ctx.config.publicBaseUrl = w.baseUrl;
    w.h.ctx.config.oidc = idp.config({
      organization: org,
      allowedDomains: ['example.com'],
      roleMap: [{ group: 'tt-admins', role: 'admin' }],
    });
    idp.accounts.set('grace', { email: 'grace@example.com', name: 'Grace Hopper', groups: ['tt-admins'] });
    idp.accounts.set('mallory', { email: 'mallory@other.org', name: 'Mallory' });
  });
  afterAll(async () => {
    await w?.close();
    await idp?.close();
  });

  async function atProvider(subject: string) {
    const { page } = w;
    await page.getByRole('heading', { name: 'Test provider sign-in' }).waitFor();
    expect(new URL(page.url()).origin).toBe(idp.issuer);
    await page.getByLabel('Account').fill(subject);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  it('signs a new person in with the provider, and signs them out there too', async () => {
    const { page } = w;
    await page.goto('/projects');
    await page.waitForURL('**/sign-in**');
    const button = page.getByRole('link', { name: 'Sign in with Test IdP' });
    await button.waitFor();
    await expectAccessible(page, 'sign-in with a provider');
    await button.click();
    await atProvider('grace');
    // Back in the app, on the page that asked for a sign-in, as the new person with the mapped role.
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/projects');
    const grace = await w.h.ctx.db
      .selectFrom('users')
      .select(['name', 'role'])
      .where('email', '=', 'grace@example.com')
      .executeTakeFirstOrThrow();
    expect(grace).toEqual({ name: 'Grace Hopper', role: 'admin' });

    await page.getByRole('button', { name: 'Sign out' }).click();
    const alsoProvider = page.getByRole('link', { name: 'Also sign out of Test IdP' });
    await alsoProvider.waitFor();
    await alsoProvider.click();
    // oidc-provider asks for confirmation, then sends the browser back to our sign-in screen.
    await page.getByRole('button', { name: /Yes, sign me out/i }).click();
    await page.waitForURL(`${w.baseUrl}/sign-in`);
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).waitFor();
  });

  it('sends a person with no account and no right to one to the "ask your admin" page', async () => {
    const { page } = w;
    await page.goto('/sign-in');
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await atProvider('mallory');
    await page.getByRole('heading', { name: 'Ask your admin for access' }).waitFor();
    expect(await page.getByText('there is no account for you here yet').count()).toBe(1);
    await expectAccessible(page, 'sign-in refused');
  });

  it("shows an owner a test sign-in's claims and mapping, without signing anyone in", async () => {
    const { page } = w;
    await page.goto('/sign-in');
    await page.getByLabel('E-mail').fill('olive@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.goto('/settings/sign-in');
    await page.getByRole('link', { name: 'Run a test sign-in' }).click();
    idp.accounts.set('alan', { email: 'alan@example.com', name: 'Alan Turing', groups: ['tt-admins', 'staff'] });
    await atProvider('alan');
    await page.getByRole('heading', { name: 'Test sign-in' }).waitFor();
    await page.getByText('Would create Alan Turing (alan@example.com) in Acme.').waitFor();
    const claims = await page.locator('pre.claims').textContent();
    expect(JSON.parse(claims!)).toMatchObject({
      sub: 'alan',
      email: 'alan@example.com',
      groups: ['tt-admins', 'staff'],
    });
    expect(await page.getByRole('row', { name: /Workspace role none \(new person\) admin/ }).count()).toBe(1);
    await expectAccessible(page, 'test sign-in result');
    // Still the owner, and nobody was created.
    const session = await page.evaluate(
      async () => (await (await fetch('/api/console/session/')).json()).data.user.email,
    );
    expect(session).toBe('olive@example.com');
    const alan = await w.h.ctx.db.selectFrom('users').select('id').where('email', '=', 'alan@example.com').execute();
    expect(alan).toEqual([]);
  });

  it("lets the owner edit the group mapping, which the audit log records, and go back to the environment's", async () => {
    const { page } = w;
    await w.h.project(await w.h.actor({ org }), 'WEB', 'Website');
    await page.goto('/settings/sign-in');
    const section = page.getByRole('region', { name: 'Groups to roles' });
    await section.getByText('From OIDC_GROUPS_CLAIM, OIDC_ROLE_MAP and OIDC_PROJECT_MAP', { exact: false }).waitFor();
    expect(await section.getByLabel('Group 1', { exact: true }).inputValue()).toBe('tt-admins');
    expect(await section.getByLabel('Role of group 1').inputValue()).toBe('admin');
    await section.getByRole('button', { name: 'Add a group for a workspace role' }).click();
    await section.getByLabel('Group 2', { exact: true }).fill('staff');
    await section.getByLabel('Role of group 2').selectOption('guest');
    await section.getByRole('button', { name: 'Add a group for a project' }).click();
    await section.getByLabel('Project group 1', { exact: true }).fill('web-team');
    await section.getByLabel('Project key of group 1').fill('web');
    await section.getByLabel('Project role of group 1').selectOption('viewer');
    await expectAccessible(page, 'group mapping');
    await section.getByRole('button', { name: 'Save mapping' }).click();
    await section.getByText('Saved here by Olive Owner', { exact: false }).waitFor();
    const stored = async () =>
      page.evaluate(async () => (await (await fetch('/api/console/oidc/mapping/')).json()).data);
    expect(await stored()).toMatchObject({
      source: 'settings',
      groups_claim: 'groups',
      roles: [
        { group: 'tt-admins', role: 'admin' },
        { group: 'staff', role: 'guest' },
      ],
      projects: [{ group: 'web-team', project: 'WEB', role: 'viewer' }],
    });

    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Audit log' }).click();
    await page.getByLabel('Action').selectOption('oidc.mapping_changed');
    await page.getByRole('button', { name: 'Filter', exact: true }).click();
    const row = page.getByRole('table', { name: 'Audit records, newest first' }).locator('tbody tr');
    await expect.poll(() => row.count()).toBe(1);
    const cells = await row.getByRole('cell').allInnerTexts();
    expect(cells[1]).toMatch(/^Olive Owner\nsigned in\n/);
    expect(cells[3]).toBe('oidc mapping OpenID Connect group mapping');
    expect(cells[4]).toContain('source: environment → settings');

    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Sign-in' }).click();
    await section.getByRole('button', { name: "Use the environment's mapping" }).click();
    await section.getByText('From OIDC_GROUPS_CLAIM, OIDC_ROLE_MAP and OIDC_PROJECT_MAP', { exact: false }).waitFor();
    expect(await section.getByLabel('Group 2', { exact: true }).count()).toBe(0);
    expect((await stored()).source).toBe('environment');
  });
});
