/**
 * Every URL form the SSRF guard must refuse (spec 6 "Endpoint URL requirements", issue 6 item 5),
 * shared by the unit, save-time and delivery-time tests. `resolves` is what the test resolver
 * answers for host names.
 */
export const REFUSED_URLS: Array<{ url: string; why: string; resolves?: string[] }> = [
  { url: 'http://hooks.example.com/', why: 'plain http' },
  { url: 'https://user:pass@hooks.example.com/', why: 'credentials' },
  { url: 'https://token@hooks.example.com/', why: 'credentials (user only)' },
  { url: 'https://127.0.0.1/', why: 'IPv4 loopback' },
  { url: 'https://127.10.20.30/', why: 'IPv4 loopback /8' },
  { url: 'https://[::1]/', why: 'IPv6 loopback' },
  { url: 'https://10.1.2.3/', why: 'RFC 1918 10/8' },
  { url: 'https://172.16.5.4/', why: 'RFC 1918 172.16/12' },
  { url: 'https://192.168.0.10/', why: 'RFC 1918 192.168/16' },
  { url: 'https://169.254.169.254/latest/meta-data/', why: 'link-local metadata' },
  { url: 'https://169.254.1.1/', why: 'IPv4 link-local' },
  { url: 'https://[fe80::1]/', why: 'IPv6 link-local' },
  { url: 'https://0.0.0.0/', why: 'unspecified IPv4' },
  { url: 'https://0/', why: 'unspecified IPv4, short form' },
  { url: 'https://[::]/', why: 'unspecified IPv6' },
  { url: 'https://[::ffff:127.0.0.1]/', why: 'IPv4-mapped loopback' },
  { url: 'https://[::ffff:10.0.0.1]/', why: 'IPv4-mapped private' },
  { url: 'https://[::ffff:169.254.169.254]/', why: 'IPv4-mapped metadata' },
  { url: 'https://[::127.0.0.1]/', why: 'IPv4-compatible loopback' },
  { url: 'https://[::a00:1]/', why: 'IPv4-compatible private' },
  { url: 'https://[64:ff9b::7f00:1]/', why: 'NAT64 of loopback' },
  { url: 'https://100.64.0.1/', why: 'CGNAT' },
  { url: 'https://100.127.255.254/', why: 'CGNAT upper end' },
  { url: 'https://[fc00::1]/', why: 'IPv6 ULA fc00::/8' },
  { url: 'https://[fd12:3456::1]/', why: 'IPv6 ULA fd00::/8' },
  { url: 'https://224.0.0.1/', why: 'IPv4 multicast' },
  { url: 'https://[ff02::1]/', why: 'IPv6 multicast' },
  { url: 'https://240.0.0.1/', why: 'IPv4 reserved 240/4' },
  { url: 'https://255.255.255.255/', why: 'broadcast' },
  { url: 'https://192.0.2.1/', why: 'documentation range (reserved)' },
  { url: 'https://[2001:db8::1]/', why: 'IPv6 documentation (reserved)' },
  { url: 'https://2130706433/', why: 'decimal IPv4' },
  { url: 'https://0x7f000001/', why: 'hex IPv4' },
  { url: 'https://0177.0.0.1/', why: 'octal IPv4' },
  { url: 'https://0x7f.1/', why: 'mixed short hex IPv4' },
  { url: 'https://127.1/', why: 'short dotted IPv4' },
  { url: 'https://134744072/', why: 'decimal form even of a public address (8.8.8.8)' },
  { url: 'https://localhost/', why: 'localhost' },
  { url: 'https://api.localhost/', why: '*.localhost' },
  { url: 'https://loopback.hooks.example/', why: 'name resolving to loopback', resolves: ['127.0.0.1'] },
  { url: 'https://private.hooks.example/', why: 'name resolving to RFC 1918', resolves: ['10.0.0.7'] },
  { url: 'https://metadata.hooks.example/', why: 'name resolving to metadata', resolves: ['169.254.169.254'] },
  { url: 'https://mapped.hooks.example/', why: 'name resolving to IPv4-mapped IPv6', resolves: ['::ffff:192.168.1.1'] },
  { url: 'https://ula.hooks.example/', why: 'name resolving to ULA', resolves: ['fd00::5'] },
  { url: 'https://mixed.hooks.example/', why: 'one public and one private address', resolves: ['93.184.216.34', '192.168.1.20'] },
  { url: 'https://cgnat.hooks.example/', why: 'name resolving to CGNAT', resolves: ['100.100.100.100'] },
  { url: 'https://nowhere.hooks.example/', why: 'name that does not resolve' },
];

export const ACCEPTED_URLS: Array<{ url: string; resolves?: string[] }> = [
  { url: 'https://93.184.216.34/hook' },
  { url: 'https://[2606:4700:4700::1111]/hook' },
  { url: 'https://public.hooks.example:8443/hook?x=1', resolves: ['93.184.216.34', '2606:4700:4700::1111'] },
];

export function resolverTable(): Record<string, string[]> {
  const table: Record<string, string[]> = {};
  for (const { url, resolves } of [...REFUSED_URLS, ...ACCEPTED_URLS]) {
    if (resolves) table[new URL(url).hostname] = resolves;
  }
  return table;
}
