import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTransaction } from '../../src/db/unit-of-work.ts';
import { issueSetupToken } from '../../src/modules/people/setup.service.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { HOST, ORIGIN, PASSWORD, person } from '../helpers/people.ts';

/**
 * Password hashing cannot be turned against the service: a link's token is checked before any
 * argon2 work, the password forms are throttled per address, attempts are counted before the
 * hash (so concurrent ones cannot race past a limit), and a process hashes a bounded number of
 * passwords at once. Hashing is measured by counting the queue's runs, never by timing.
 */
describe('password hashing under abuse', () => {
  let h: TestHarness;
  beforeAll(async () => {
    h = await createHarness({ config: { signIn: { perAccount: 10, perAddress: 1000, windowSeconds: 900 } } });
  });
  afterAll(() => h.close());

  const hashes = () => h.ctx.state.passwordHashing.started;
  const post = (url: string, body: unknown, harness = h) =>
    harness.request('POST', url, { body, headers: { host: HOST, origin: ORIGIN } });
  const badLinkForms = [
    [
      '/api/console/setup/',
      {
        token: 'x'.repeat(43),
        organization: { name: 'A', slug: 'a' },
        name: 'A',
        email: 'a@a.test',
        password: PASSWORD,
      },
    ],
    ['/api/console/invitations/accept/', { token: 'x'.repeat(43), name: 'A', password: PASSWORD }],
    ['/api/console/password-resets/complete/', { token: 'x'.repeat(43), password: PASSWORD }],
  ] as const;

  it('a bad link is refused before any password hashing: a flood of them hashes nothing', async () => {
    await person(h, { role: 'owner' });
    const before = hashes();
    for (let i = 0; i < 10; i++) {
      for (const [url, body] of badLinkForms) {
        const res = await post(url, body);
        expect(res.status, url).toBe(400);
        expect(res.body.error.details.fields).toHaveProperty('token');
      }
    }
    expect(hashes() - before).toBe(0);
  });

  it('setup refuses once the organization exists, even with a setup link issued before, without hashing', async () => {
    const fresh = await createHarness();
    try {
      const setup = await inTransaction(fresh.ctx, (tx) => issueSetupToken(tx));
      await person(fresh, { role: 'owner' });
      const before = fresh.ctx.state.passwordHashing.started;
      const res = await post(
        '/api/console/setup/',
        {
          token: setup!.token,
          organization: { name: 'Late', slug: 'late' },
          name: 'Late',
          email: 'l@l.test',
          password: PASSWORD,
        },
        fresh,
      );
      expect(res.status).toBe(400);
      expect(fresh.ctx.state.passwordHashing.started).toBe(before);
      expect(await fresh.ctx.db.selectFrom('organizations').select('slug').execute()).toHaveLength(1);
    } finally {
      await fresh.close();
    }
  });

  it('setup, invitations and resets are throttled per address like sign-in, sharing its count', async () => {
    const strict = await createHarness({ config: { signIn: { perAccount: 100, perAddress: 4, windowSeconds: 900 } } });
    try {
      for (const [url, body] of badLinkForms) expect((await post(url, body, strict)).status).toBe(400);
      expect((await post('/api/console/sign-in/', { email: 'nobody@x.test', password: PASSWORD }, strict)).status).toBe(
        401,
      );
      for (const [url, body] of badLinkForms) {
        const res = await post(url, body, strict);
        expect(res.status, url).toBe(429);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      const signIn = await post('/api/console/sign-in/', { email: 'nobody@x.test', password: PASSWORD }, strict);
      expect(signIn.status).toBe(429);
    } finally {
      await strict.close();
    }
  });

  it('concurrent sign-ins cannot race past the limit: 60 at once against a limit of 10 hash 10 passwords', async () => {
    const target = await person(h);
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = h.app.server.address() as AddressInfo;
    const before = hashes();
    const answers = await Promise.all(
      Array.from({ length: 60 }, () =>
        fetch(`http://127.0.0.1:${port}/api/console/sign-in/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
          body: JSON.stringify({ email: target.email, password: 'not the password' }),
        }).then((res) => res.status),
      ),
    );
    expect(answers.filter((s) => s === 401)).toHaveLength(10);
    expect(answers.filter((s) => s === 429)).toHaveLength(50);
    expect(hashes() - before).toBe(10);
  });
});

describe('password hashing: one bounded queue per process', () => {
  it('a process hashes one password at a time here, and a full queue answers 503 with Retry-After', async () => {
    const h = await createHarness({ config: { passwords: { hashConcurrency: 1, hashQueue: 2 } } });
    try {
      const queue = h.ctx.state.passwordHashing;
      // Some hashing already under way holds the only slot while the requests arrive.
      let release!: () => void;
      const held = queue.run(() => new Promise<void>((resolve) => (release = resolve)));
      const pending = Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          h.request('POST', '/api/console/sign-in/', {
            body: { email: `someone${i}@example.test`, password: PASSWORD },
            headers: { host: HOST, origin: ORIGIN },
          }),
        ),
      );
      while (queue.waitingCount + queue.refused < 12) await new Promise((resolve) => setImmediate(resolve));
      expect(queue.waitingCount).toBe(2);
      release();
      await held;
      const answers = await pending;
      expect(queue.peak).toBe(1);
      expect(answers.map((a) => a.status).sort()).toEqual([...Array(2).fill(401), ...Array(10).fill(503)]);
      const busy = answers.find((a) => a.status === 503)!;
      expect(busy.body.error.code).toBe('SERVICE_UNAVAILABLE');
      expect(busy.headers['retry-after']).toBe('1');
      expect(queue.started).toBe(3);
      expect(queue.refused).toBe(10);
    } finally {
      await h.close();
    }
  });
});
