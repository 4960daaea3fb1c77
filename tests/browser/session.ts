import { createOrganization, createUser } from '../../src/modules/accounts/accounts.service.ts';
import { setPassword } from '../../src/modules/people/people.service.ts';
import type { Actor } from '../helpers/harness.ts';
import { PASSWORD } from '../helpers/people.ts';
import type { BrowserWorld } from './browser.ts';

export interface SignedIn {
  email: string;
  userId: number;
  org: string;
  /** A service account of the same organization, for checks and changes made through the API. */
  bot: Actor;
}

let counter = 0;

/** A workspace owner with a password, signed in through the sign-in screen. */
export async function signIn(world: BrowserWorld, name = 'Ada Lovelace'): Promise<SignedIn> {
  const { h, page } = world;
  const org = `web-${process.pid}-${++counter}`;
  await createOrganization(h.ctx, { name: 'Acme', slug: org });
  const email = `owner${counter}@example.test`;
  const user = await createUser(h.ctx, { org, kind: 'human', name, email, role: 'owner' });
  await setPassword(h.ctx, user.id, PASSWORD);
  const bot = await h.actor({ org });

  await page.goto('/');
  await page.waitForURL('**/sign-in**');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return { email, userId: user.id, org, bot };
}
