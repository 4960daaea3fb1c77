import { describe, expect, it } from 'vitest';
import {
  checkTarget,
  forbiddenAddressReason,
  parseEndpointUrl,
  UnsafeTargetError,
} from '../../src/modules/webhooks/delivery/url-guard.ts';
import { tableResolver } from '../helpers/webhooks.ts';
import { ACCEPTED_URLS, formUrl, REFUSED_URLS, resolverTable } from './ssrf-forms.ts';

describe('SSRF guard for endpoint URLs', () => {
  const resolve = tableResolver(resolverTable());

  it.each(REFUSED_URLS)('refuses $why: $url', async ({ url, why }) => {
    const refusal = checkTarget(formUrl(url), { allowPrivate: false, resolve });
    await expect(refusal).rejects.toBeInstanceOf(UnsafeTargetError);
    // A form must be refused for what it is, not because the test resolver lacks an answer for it.
    if (!why.includes('does not resolve')) await expect(refusal).rejects.not.toThrow(/does not resolve/);
  });

  it.each(ACCEPTED_URLS)(
    'accepts a public target and checks the host it will connect to: $url',
    async ({ url, host }) => {
      // One accepted form names port 8443: allowed through WEBHOOK_ALLOWED_PORTS (only 443 by default).
      const target = await checkTarget(url, { allowPrivate: false, allowedPorts: [8443], resolve });
      expect(target.hostname).toBe(host);
      expect(target.addresses.length).toBeGreaterThan(0);
    },
  );

  it('refuses localhost with trailing dots by name, before any resolver is asked', async () => {
    const counting = tableResolver({ 'localhost.': ['93.184.216.34'], 'api.localhost..': ['93.184.216.34'] });
    for (const url of ['https://localhost./', 'https://LOCALHOST../', 'https://api.localhost../']) {
      await expect(checkTarget(url, { allowPrivate: false, resolve: counting }), url).rejects.toThrow(
        'must not point at localhost',
      );
    }
    expect(counting.calls).toEqual([]);
  });

  it('checks every resolved address, not just the first', async () => {
    await expect(checkTarget('https://mixed.hooks.example/', { allowPrivate: false, resolve })).rejects.toThrow(
      'host mixed.hooks.example resolves to 192.168.1.20, a private (RFC 1918) address',
    );
  });

  it('names the reason for literals and normalised numeric forms', () => {
    expect(() => parseEndpointUrl('https://2130706433/', false)).toThrow(/numeric host form .* of 127\.0\.0\.1/);
    expect(() => parseEndpointUrl('https://u:p@example.com/', false)).toThrow('must not contain credentials');
    expect(() => parseEndpointUrl('ftp://example.com/', true)).toThrow('must use https');
    expect(() => parseEndpointUrl('not a url', false)).toThrow('is not a valid absolute URL');
    expect(forbiddenAddressReason('169.254.169.254')).toMatch(/link-local .*metadata/);
    expect(forbiddenAddressReason('::ffff:7f00:1')).toBe('an IPv4-mapped IPv6 address (of 127.0.0.1)');
    expect(forbiddenAddressReason('::7f00:1')).toBe('an IPv4-compatible IPv6 address (::/96)');
    expect(forbiddenAddressReason('8.8.8.8')).toBeNull();
  });

  it('an IP-literal host is checked without asking the resolver', async () => {
    const counting = tableResolver({});
    await expect(checkTarget('https://10.0.0.1/', { allowPrivate: false, resolve: counting })).rejects.toThrow(
      /RFC 1918/,
    );
    expect(counting.calls).toEqual([]);
  });

  it('WEBHOOK_ALLOW_PRIVATE_TARGETS allows http and private targets, never credentials', async () => {
    await expect(checkTarget('http://127.0.0.1:9/', { allowPrivate: true, resolve })).resolves.toMatchObject({
      addresses: [{ address: '127.0.0.1', family: 4 }],
    });
    await expect(checkTarget('https://private.hooks.example/', { allowPrivate: true, resolve })).resolves.toBeTruthy();
    await expect(checkTarget('https://a:b@127.0.0.1/', { allowPrivate: true, resolve })).rejects.toThrow('credentials');
  });

  it('a resolution slower than the attempt deadline is abandoned', async () => {
    const never = () => new Promise<never>(() => undefined);
    await expect(
      checkTarget('https://slow.example/', { allowPrivate: false, resolve: never, signal: AbortSignal.timeout(20) }),
    ).rejects.toThrow('host slow.example did not resolve within the deadline');
  });
});
