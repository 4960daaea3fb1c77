import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { browserFrom, PASSWORD, person, signIn } from '../helpers/people.ts';

/**
 * TRUST_PROXY trusts a number of proxy hops or a list of proxy addresses, never every
 * X-Forwarded-For entry (docs/operating/reverse-proxy.md): the client address is the one the
 * last trusted proxy saw, so a client cannot choose it by prepending entries. The harness's
 * requests come from 127.0.0.1.
 */
describe('TRUST_PROXY: hops or proxy addresses', () => {
  const sessionIp = async (h: TestHarness, forwardedFor: string) => {
    const p = await person(h);
    const res = await signIn(h, p.email, PASSWORD, { 'x-forwarded-for': forwardedFor });
    expect(res.status).toBe(200);
    const sessions = await browserFrom(h, res).request('GET', '/api/console/sessions/');
    return sessions.body.data.find((s: { current: boolean }) => s.current).ip as string;
  };

  const trustProxy = (value: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;

  it('TRUST_PROXY=true is one hop: the address the proxy saw, not what the client wrote before it', async () => {
    const h = await createHarness({ config: { trustProxy: trustProxy('true') } });
    try {
      expect(await sessionIp(h, '203.0.113.9, 198.51.100.7')).toBe('198.51.100.7');
      expect(await sessionIp(h, '198.51.100.7')).toBe('198.51.100.7');
    } finally {
      await h.close();
    }
  });

  it('a list of proxies: the first address from the right that is not one of them', async () => {
    const h = await createHarness({ config: { trustProxy: trustProxy('127.0.0.1, 10.0.0.0/8') } });
    try {
      expect(await sessionIp(h, '203.0.113.9, 198.51.100.7, 10.1.2.3')).toBe('198.51.100.7');
    } finally {
      await h.close();
    }
  });

  it('the per-address sign-in throttle cannot be dodged by forging X-Forwarded-For entries', async () => {
    const h = await createHarness({
      config: { trustProxy: trustProxy('true'), signIn: { perAccount: 100, perAddress: 3, windowSeconds: 900 } },
    });
    try {
      const attempt = (i: number) =>
        signIn(h, `someone${i}@example.test`, 'wrong password!!', {
          'x-forwarded-for': `192.0.2.${i}, 198.51.100.7`,
        });
      for (let i = 0; i < 3; i++) expect((await attempt(i)).status).toBe(401);
      expect((await attempt(3)).status).toBe(429);
    } finally {
      await h.close();
    }
  });

  it('the variable: off, true (one hop), a number of hops, or a list of addresses and ranges', () => {
    const trust = trustProxy;
    expect(trust('')).toBe(false);
    expect(trust('false')).toBe(false);
    expect(trust('true')).toBe(1);
    expect(trust('2')).toBe(2);
    expect(trust('10.0.0.1, 192.168.0.0/16,::1')).toEqual(['10.0.0.1', '192.168.0.0/16', '::1']);
    expect(() => trust('proxy.example')).toThrow(/TRUST_PROXY/);
    expect(() => trust('10.0.0.0/99')).toThrow(/TRUST_PROXY/);
  });
});
