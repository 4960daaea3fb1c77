import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { person } from '../helpers/people.ts';

/**
 * Who a signed-in person sees in GET /api/console/people/ (docs/api/access.md, "People"):
 * owners, admins and members the whole organization with addresses; a guest only the people
 * sharing a project with them, and no one's address but their own.
 */
describe('the people directory: what a guest sees', () => {
  let h: TestHarness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  it("a guest sees themselves and their projects' people, without addresses; a member sees everyone", async () => {
    const owner = await person(h, { role: 'owner' });
    const guest = await person(h, { org: owner.org, role: 'guest' });
    const colleague = await person(h, { org: owner.org, role: 'member' });
    const stranger = await person(h, { org: owner.org, role: 'member' });
    const bot = await h.actor({ org: owner.org });
    await h.project(bot, 'GST');
    await h.addMember('GST', guest.userId, 'viewer');
    await h.addMember('GST', colleague.userId, 'member');
    await h.project(bot, 'OTH');
    await h.addMember('OTH', stranger.userId, 'member');

    const seen = await guest.request('GET', '/api/console/people/');
    expect(seen.status).toBe(200);
    const byId = new Map(seen.body.data.map((p: { id: number }) => [p.id, p]));
    expect([...byId.keys()].sort((a, b) => Number(a) - Number(b))).toEqual(
      [guest.userId, colleague.userId, bot.accountId].sort((a, b) => a - b),
    );
    expect(byId.get(guest.userId)).toMatchObject({ email: guest.email, role: 'guest' });
    expect(byId.get(colleague.userId)).toMatchObject({ email: null, role: 'member' });
    expect(JSON.stringify(seen.body)).not.toContain(stranger.email);
    expect(JSON.stringify(seen.body)).not.toContain(owner.email);

    const all = await colleague.request('GET', '/api/console/people/');
    expect(all.body.data.map((p: { email: string | null }) => p.email)).toEqual(
      expect.arrayContaining([owner.email, guest.email, colleague.email, stranger.email]),
    );
  });
});
