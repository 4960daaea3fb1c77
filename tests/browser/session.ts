import type { Actor } from '../helpers/harness.ts';
import type { BrowserWorld } from './browser.ts';

/**
 * Opens the app as a workspace owner. The console session API is not in this branch yet, so the
 * page carries the owner's API token and the session endpoint answers the contract's payload.
 */
export async function signIn(world: BrowserWorld): Promise<Actor> {
  const owner = await world.h.actor({ role: 'admin' });
  const account = await world.h.ctx.db.selectFrom('users').select(['id', 'name']).where('id', '=', owner.accountId).executeTakeFirstOrThrow();
  await world.context.setExtraHTTPHeaders({ authorization: `Bearer ${owner.token}` });
  await world.context.route('**/api/console/session/', (route) =>
    route.fulfill({
      json: {
        success: true,
        data: {
          user: { id: account.id, kind: 'human', email: 'owner@example.test', name: account.name, role: 'admin' },
          organization: { id: 1, slug: owner.org, name: owner.org },
          csrf_token: 'unused',
          session: { id: 1, created_at: new Date().toISOString(), expires_at: new Date(Date.now() + 3600_000).toISOString() },
        },
      },
    }),
  );
  await world.page.goto('/');
  return owner;
}
