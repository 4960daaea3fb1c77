import { describe, expect, it } from 'vitest';
import { checkTarget, forbiddenAddressReason, parseEndpointUrl, UnsafeTargetError } from '../../src/modules/webhooks/url-guard.ts';
import { tableResolver } from '../helpers/webhooks.ts';
import { ACCEPTED_URLS, REFUSED_URLS, resolverTable } from './ssrf-forms.ts';

describe('SSRF guard (spec 6 "Endpoint URL requirements")', () => {
  const resolve = tableResolver(resolverTable());

  it.each(REFUSED_URLS)('refuses $why: $url', async ({ url }) => {
    await expect(checkTarget(url, { allowPrivate: false, resolve })).rejects.toBeInstanceOf(UnsafeTargetError);
  });

  it.each(ACCEPTED_URLS)('accepts a public target: $url', async ({ url }) => {
    const target = await checkTarget(url, { allowPrivate: false, resolve });
    expect(target.addresses.length).toBeGreaterThan(0);
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
    await expect(checkTarget('https://10.0.0.1/', { allowPrivate: false, resolve: counting })).rejects.toThrow(/RFC 1918/);
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
    await expect(checkTarget('https://slow.example/', { allowPrivate: false, resolve: never, signal: AbortSignal.timeout(20) })).rejects.toThrow(
      'host slow.example did not resolve within the deadline',
    );
  });
});
