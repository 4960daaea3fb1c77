import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { type Browser, browserFrom, person, signIn } from '../helpers/people.ts';

/**
 * The organization's sustained budget is shared per account: however many tokens a person
 * makes or sessions they open, they spend at most their share. Owners and admins keep a usable
 * console when the budget is spent, so they can remove whoever spent it.
 */
describe('rate limits: the fair share is per account, and the console stays usable for those who manage people', () => {
  let h: TestHarness;
  let owner: Browser & { org: string };
  let guest: Browser & { email: string };
  let member: Browser;
  const ORG_HOURLY = 100;
  const SHARE = 20;

  beforeAll(async () => {
    h = await createHarness({
      config: { rateLimit: { tokenBurst: 1000, orgHourly: ORG_HOURLY, accountHourlySharePercent: SHARE } },
    });
    owner = await person(h, { role: 'owner' });
    guest = await person(h, { org: owner.org, role: 'guest' });
    member = await person(h, { org: owner.org, role: 'member' });
  });
  afterAll(() => h.close());

  it("six self-made tokens and six sessions of one guest spend one account's share, not six", async () => {
    let spent = 0;
    const tokens: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await guest.request('POST', '/api/console/tokens/', {
        name: `t${i}`,
        account: guest.userId,
        scopes: ['projects:read'],
      });
      expect(res.status).toBe(201);
      tokens.push(res.body.data.token);
      spent++;
    }
    const sessions = [guest];
    for (let i = 0; i < 5; i++) sessions.push({ ...browserFrom(h, await signIn(h, guest.email)), email: guest.email });

    const callers = [
      ...tokens.map((token) => () => h.request('GET', '/api/v1/me/', { token })),
      ...sessions.map((session) => () => session.request('GET', '/api/v1/me/')),
    ];
    let refused = 0;
    for (let round = 0; round < 4; round++) {
      for (const call of callers) {
        const res = await call();
        if (res.status === 200) spent++;
        else {
          expect(res.status).toBe(429);
          expect(res.body.error.details.limit).toBe(SHARE);
          refused++;
        }
      }
    }
    expect(spent).toBe(SHARE);
    expect(refused).toBe(4 * callers.length - (SHARE - 6));
    // The rest of the organization still has its budget.
    expect((await member.request('GET', '/api/v1/me/')).status).toBe(200);
  });

  it('once the organization budget is spent, owners and admins still use the console; others wait', async () => {
    // Service accounts spend what is left of the organization's hour.
    let orgRefusal;
    for (let i = 0; !orgRefusal; i++) {
      const bot = await h.actor({ org: owner.org, role: 'member' });
      for (let n = 0; n < SHARE; n++) {
        const res = await h.request('GET', '/api/v1/me/', { token: bot.token });
        if (res.status === 429) {
          orgRefusal = res;
          break;
        }
      }
      expect(i).toBeLessThan(ORG_HOURLY / SHARE);
    }
    expect(orgRefusal.body.error.details.limit).toBe(ORG_HOURLY);
    expect(Number(orgRefusal.headers['retry-after'])).toBeGreaterThan(3000);

    expect((await owner.request('GET', '/api/v1/me/')).status).toBe(429);
    expect((await member.request('GET', '/api/console/session/')).status).toBe(429);

    const people = await owner.request('GET', '/api/console/people/');
    expect(people.status).toBe(200);
    expect(people.headers['ratelimit-limit']).toBe('1000');
    const removed = await owner.request('PATCH', `/api/console/people/${guest.userId}/`, { active: false });
    expect(removed.status).toBe(200);
    expect(removed.body.data.active).toBe(false);
    const admin = await person(h, { org: owner.org, role: 'admin' });
    expect((await admin.request('GET', '/api/console/tokens/')).status).toBe(200);
  });
});

describe('rate limits: search counts toward the account share and the organization budget', () => {
  it('a token searching at its own per-minute limit still spends the hourly share it shares with its account', async () => {
    const h = await createHarness({
      config: { rateLimit: { tokenBurst: 1000, orgHourly: 30, accountHourlySharePercent: 20, searchPerMinute: 1000 } },
    });
    try {
      const actor = await h.actor();
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++)
        statuses.push((await h.request('GET', '/api/v1/search/?q=anything', { token: actor.token })).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
      expect((await h.request('GET', '/api/v1/me/', { token: actor.token })).status).toBe(429);
    } finally {
      await h.close();
    }
  });
});
