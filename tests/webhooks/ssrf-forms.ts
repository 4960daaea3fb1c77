/**
 * Every URL form the SSRF guard must refuse (docs/api/webhooks.md, "Webhook URLs"),
 * shared by the unit, save-time and delivery-time tests. `{port}` is replaced by the loopback
 * canary's port at delivery time, so a form the guard missed would connect to the canary.
 * `resolves` is what the test resolver answers for host names (the system resolver answers the
 * same for `localhost.localdomain` and `ip6-localhost` on most hosts).
 */
export interface SsrfForm {
  url: string;
  why: string;
  resolves?: string[];
}

export const REFUSED_URLS: SsrfForm[] = [
  // Scheme and credentials.
  { url: 'http://hooks.example.com:{port}/', why: 'plain http' },
  { url: 'http://127.0.0.1:{port}/', why: 'plain http to loopback' },
  { url: 'https://user:pass@hooks.example.com:{port}/', why: 'credentials' },
  { url: 'https://token@hooks.example.com:{port}/', why: 'credentials (user only)' },
  { url: 'https://:pass@hooks.example.com:{port}/', why: 'credentials (password only)' },
  { url: 'http://user:pass@127.0.0.1:{port}/', why: 'credentials to loopback over http' },
  { url: 'https://public.hooks.example@127.0.0.1:{port}/', why: 'userinfo naming a public host, loopback host' },
  { url: 'https://public.hooks.example:443@127.0.0.1:{port}/', why: 'userinfo host:port, loopback host' },
  { url: 'https://127.0.0.1:{port}%5C@public.hooks.example/', why: 'percent-encoded backslash before @ (userinfo)' },
  {
    url: 'https://127.0.0.1:{port}\\@public.hooks.example/',
    why: 'backslash is a path separator in WHATWG: the host is 127.0.0.1',
  },
  { url: 'https://@127.0.0.1:{port}/', why: 'empty userinfo, loopback host' },
  { url: 'ftp://hooks.example.com:{port}/', why: 'not http(s)' },
  { url: 'file:///etc/passwd', why: 'file scheme' },
  { url: 'gopher://127.0.0.1:{port}/_x', why: 'gopher scheme' },

  // IPv4 loopback in every spelling WHATWG accepts (all normalise to 127.0.0.1).
  { url: 'https://127.0.0.1:{port}/', why: 'IPv4 loopback' },
  { url: 'https://127.10.20.30:{port}/', why: 'IPv4 loopback /8' },
  { url: 'https://127.255.255.254:{port}/', why: 'IPv4 loopback /8 upper end' },
  { url: 'https://2130706433:{port}/', why: 'decimal IPv4' },
  { url: 'https://017700000001:{port}/', why: 'octal IPv4 (one part)' },
  { url: 'https://0x7f000001:{port}/', why: 'hex IPv4' },
  { url: 'https://0X7F000001:{port}/', why: 'hex IPv4, upper case' },
  { url: 'https://0x7f.1:{port}/', why: 'mixed short hex IPv4' },
  { url: 'https://0177.0.0.1:{port}/', why: 'octal IPv4' },
  { url: 'https://00000177.0.0.1:{port}/', why: 'octal IPv4 with leading zeros' },
  { url: 'https://127.1:{port}/', why: 'two-part IPv4' },
  { url: 'https://127.0.1:{port}/', why: 'three-part IPv4' },
  { url: 'https://127.000.000.001:{port}/', why: 'zero-padded IPv4 (octal zeros)' },
  { url: 'https://0x7F.0x00.0x00.0x01:{port}/', why: 'dotted hex IPv4' },
  { url: 'https://0x7f.0.0.1:{port}/', why: 'mixed-radix hex.dec' },
  { url: 'https://0177.0x0.1:{port}/', why: 'mixed-radix octal.hex.dec, three parts' },
  { url: 'https://127.0.0.1.:{port}/', why: 'trailing dot' },
  { url: 'https://2130706433.:{port}/', why: 'decimal with trailing dot' },
  { url: 'https://0x7f.0x0.0x0.0x1.:{port}/', why: 'dotted hex with trailing dot' },
  { url: 'https://127%2e0%2e0%2e1:{port}/', why: 'percent-encoded dots' },
  { url: 'https://%31%32%37.0.0.1:{port}/', why: 'percent-encoded digits' },
  { url: 'https://１２７．０．０．１:{port}/', why: 'full-width digits and dots (IDNA)' },
  { url: 'https://127。0。0。1:{port}/', why: 'ideographic full stops (IDNA)' },
  { url: 'https://127｡0｡0｡1:{port}/', why: 'half-width ideographic full stops (IDNA)' },
  { url: 'https://12７.0.0.1:{port}/', why: 'one full-width digit (IDNA)' },
  { url: 'https://①②⑦.0.0.1:{port}/', why: 'circled digits (IDNA)' },

  // Unspecified (connects to the local host on Linux).
  { url: 'https://0.0.0.0:{port}/', why: 'unspecified IPv4' },
  { url: 'https://0:{port}/', why: 'unspecified IPv4, short form' },
  { url: 'https://0x0:{port}/', why: 'unspecified IPv4, hex' },
  { url: 'https://00:{port}/', why: 'unspecified IPv4, octal' },
  { url: 'https://0.0.0.0.:{port}/', why: 'unspecified IPv4, trailing dot' },
  { url: 'https://0.1.2.3:{port}/', why: '0.0.0.0/8' },

  // IPv6 forms of loopback and other local addresses.
  { url: 'https://[::1]:{port}/', why: 'IPv6 loopback' },
  { url: 'https://[0:0:0:0:0:0:0:1]:{port}/', why: 'IPv6 loopback, uncompressed' },
  { url: 'https://[0000::0001]:{port}/', why: 'IPv6 loopback, zero-padded' },
  { url: 'https://[::]:{port}/', why: 'unspecified IPv6' },
  { url: 'https://[::ffff:127.0.0.1]:{port}/', why: 'IPv4-mapped loopback' },
  { url: 'https://[::FFFF:127.0.0.1]:{port}/', why: 'IPv4-mapped loopback, upper case' },
  { url: 'https://[::ffff:7f00:1]:{port}/', why: 'IPv4-mapped loopback, hex' },
  { url: 'https://[0:0:0:0:0:ffff:127.0.0.1]:{port}/', why: 'IPv4-mapped loopback, uncompressed' },
  { url: 'https://[::ffff:0.0.0.0]:{port}/', why: 'IPv4-mapped unspecified' },
  { url: 'https://[::ffff:10.0.0.1]:{port}/', why: 'IPv4-mapped private' },
  { url: 'https://[::ffff:0:7f00:1]:{port}/', why: 'IPv4-translated (SIIT, ::ffff:0:0/96) loopback' },
  {
    url: 'https://[::ffff:0177.0.0.1]:{port}/',
    why: 'IPv4-mapped with an octal octet (invalid; ipaddr.js would read 177.0.0.1)',
  },
  { url: 'https://[::127.0.0.1]:{port}/', why: 'IPv4-compatible loopback' },
  { url: 'https://[::7f00:1]:{port}/', why: 'IPv4-compatible loopback, hex' },
  { url: 'https://[::a00:1]:{port}/', why: 'IPv4-compatible private' },
  { url: 'https://[64:ff9b::7f00:1]:{port}/', why: 'NAT64 of loopback' },
  { url: 'https://[64:ff9b::127.0.0.1]:{port}/', why: 'NAT64 of loopback, dotted' },
  { url: 'https://[64:ff9b::a9fe:a9fe]:{port}/', why: 'NAT64 of metadata' },
  { url: 'https://[64:ff9b:1::7f00:1]:{port}/', why: 'local-use NAT64 (64:ff9b:1::/48)' },
  { url: 'https://[2002:7f00:1::]:{port}/', why: '6to4 of loopback' },
  { url: 'https://[2002:a9fe:a9fe::]:{port}/', why: '6to4 of metadata' },
  { url: 'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]:{port}/', why: 'Teredo (embeds 127.0.0.1 inverted)' },
  { url: 'https://[fe80::1]:{port}/', why: 'IPv6 link-local' },
  { url: 'https://[fe80::1%25eth0]:{port}/', why: 'IPv6 zone id (WHATWG rejects it)' },
  { url: 'https://[::1%25lo]:{port}/', why: 'IPv6 loopback with zone id' },
  { url: 'https://[fec0::1]:{port}/', why: 'IPv6 site-local (deprecated)' },
  { url: 'https://[fc00::1]:{port}/', why: 'IPv6 ULA fc00::/8' },
  { url: 'https://[fd12:3456::1]:{port}/', why: 'IPv6 ULA fd00::/8' },
  { url: 'https://[ff02::1]:{port}/', why: 'IPv6 multicast' },
  { url: 'https://[100::1]:{port}/', why: 'IPv6 discard prefix' },
  { url: 'https://[2001:db8::1]:{port}/', why: 'IPv6 documentation (reserved)' },
  { url: 'https://[::1]./', why: 'IPv6 literal with trailing dot (invalid)' },
  { url: 'https://%5B::1%5D:{port}/', why: 'percent-encoded brackets (invalid)' },

  // localhost names.
  { url: 'https://localhost:{port}/', why: 'localhost' },
  { url: 'https://LOCALHOST:{port}/', why: 'localhost, upper case' },
  { url: 'https://localhost.:{port}/', why: 'localhost, trailing dot' },
  { url: 'https://localhost..:{port}/', why: 'localhost, two trailing dots' },
  { url: 'https://LocalHost.:{port}/', why: 'localhost, mixed case and trailing dot' },
  { url: 'https://api.localhost:{port}/', why: '*.localhost' },
  { url: 'https://api.localhost.:{port}/', why: '*.localhost, trailing dot' },
  { url: 'https://%6c%6f%63%61%6c%68%6f%73%74:{port}/', why: 'percent-encoded localhost' },
  { url: 'https://ⓛⓞⓒⓐⓛⓗⓞⓢⓣ:{port}/', why: 'circled letters (IDNA) localhost' },
  { url: 'https://ｌｏｃａｌｈｏｓｔ:{port}/', why: 'full-width (IDNA) localhost' },
  { url: 'https://localhost.localdomain:{port}/', why: 'localhost.localdomain', resolves: ['127.0.0.1'] },
  { url: 'https://ip6-localhost:{port}/', why: 'ip6-localhost', resolves: ['::1'] },

  // Cloud metadata (169.254.169.254 and friends).
  { url: 'https://169.254.169.254:{port}/latest/meta-data/', why: 'link-local metadata' },
  { url: 'https://169.254.169.254.:{port}/', why: 'metadata, trailing dot' },
  { url: 'https://0xa9fea9fe:{port}/', why: 'metadata, hex' },
  { url: 'https://2852039166:{port}/', why: 'metadata, decimal' },
  { url: 'https://0251.0376.0251.0376:{port}/', why: 'metadata, octal' },
  { url: 'https://0xa9.0xfe.0xa9.0xfe:{port}/', why: 'metadata, dotted hex' },
  { url: 'https://169.254.43518:{port}/', why: 'metadata, three-part' },
  { url: 'https://[::ffff:169.254.169.254]:{port}/', why: 'IPv4-mapped metadata' },
  { url: 'https://[::ffff:a9fe:a9fe]:{port}/', why: 'IPv4-mapped metadata, hex' },
  { url: 'https://[fd00:ec2::254]:{port}/', why: 'AWS IPv6 metadata (ULA)' },
  { url: 'https://169.254.1.1:{port}/', why: 'IPv4 link-local' },
  { url: 'https://100.100.100.200:{port}/', why: 'Alibaba metadata (CGNAT)' },
  { url: 'https://metadata.google.internal:{port}/', why: 'GCP metadata name', resolves: ['169.254.169.254'] },

  // Special-purpose IPv4 ranges.
  { url: 'https://100.64.0.1:{port}/', why: 'CGNAT' },
  { url: 'https://100.127.255.254:{port}/', why: 'CGNAT upper end' },
  { url: 'https://198.18.0.1:{port}/', why: 'benchmarking 198.18/15' },
  { url: 'https://198.19.255.254:{port}/', why: 'benchmarking 198.18/15 upper end' },
  { url: 'https://240.0.0.1:{port}/', why: 'IPv4 reserved 240/4' },
  { url: 'https://255.255.255.254:{port}/', why: 'IPv4 reserved 240/4 upper end' },
  { url: 'https://255.255.255.255:{port}/', why: 'broadcast' },
  { url: 'https://4294967295:{port}/', why: 'broadcast, decimal' },
  { url: 'https://224.0.0.1:{port}/', why: 'IPv4 multicast' },
  { url: 'https://239.255.255.250:{port}/', why: 'IPv4 multicast (SSDP)' },
  { url: 'https://192.0.0.1:{port}/', why: 'IETF protocol assignments 192.0.0/24' },
  { url: 'https://192.0.2.1:{port}/', why: 'documentation TEST-NET-1' },
  { url: 'https://198.51.100.1:{port}/', why: 'documentation TEST-NET-2' },
  { url: 'https://203.0.113.1:{port}/', why: 'documentation TEST-NET-3' },
  { url: 'https://192.88.99.1:{port}/', why: '6to4 relay anycast' },
  { url: 'https://4294967296:{port}/', why: 'decimal beyond 32 bits (invalid)' },

  // RFC 1918 in several spellings.
  { url: 'https://10.1.2.3:{port}/', why: 'RFC 1918 10/8' },
  { url: 'https://10.255.255.255:{port}/', why: 'RFC 1918 10/8 upper end' },
  { url: 'https://012.1.2.3:{port}/', why: 'RFC 1918 10/8, octal' },
  { url: 'https://0xa.1:{port}/', why: 'RFC 1918 10/8, short hex' },
  { url: 'https://167772161:{port}/', why: 'RFC 1918 10/8, decimal' },
  { url: 'https://172.16.5.4:{port}/', why: 'RFC 1918 172.16/12' },
  { url: 'https://172.31.255.255:{port}/', why: 'RFC 1918 172.16/12 upper end' },
  { url: 'https://0xac100001:{port}/', why: 'RFC 1918 172.16/12, hex' },
  { url: 'https://192.168.0.10:{port}/', why: 'RFC 1918 192.168/16' },
  { url: 'https://192.168.1:{port}/', why: 'RFC 1918 192.168/16, three-part' },
  { url: 'https://0300.0250.0.1:{port}/', why: 'RFC 1918 192.168/16, octal' },
  { url: 'https://3232235521:{port}/', why: 'RFC 1918 192.168/16, decimal' },
  { url: 'https://134744072:{port}/', why: 'decimal form even of a public address (8.8.8.8)' },

  // Names whose DNS answers are (partly) not public.
  { url: 'https://loopback.hooks.example:{port}/', why: 'name resolving to loopback', resolves: ['127.0.0.1'] },
  { url: 'https://loopback6.hooks.example:{port}/', why: 'name resolving to ::1', resolves: ['::1'] },
  { url: 'https://zero.hooks.example:{port}/', why: 'name resolving to 0.0.0.0', resolves: ['0.0.0.0'] },
  { url: 'https://private.hooks.example:{port}/', why: 'name resolving to RFC 1918', resolves: ['10.0.0.7'] },
  { url: 'https://metadata.hooks.example:{port}/', why: 'name resolving to metadata', resolves: ['169.254.169.254'] },
  {
    url: 'https://mapped.hooks.example:{port}/',
    why: 'name resolving to IPv4-mapped IPv6',
    resolves: ['::ffff:192.168.1.1'],
  },
  {
    url: 'https://mapped-loopback.hooks.example:{port}/',
    why: 'name resolving to IPv4-mapped loopback',
    resolves: ['::ffff:127.0.0.1'],
  },
  {
    url: 'https://mapped-octal.hooks.example:{port}/',
    why: 'name "resolving" to IPv4-mapped with an octal octet',
    resolves: ['::ffff:0177.0.0.1'],
  },
  { url: 'https://ula.hooks.example:{port}/', why: 'name resolving to ULA', resolves: ['fd00::5'] },
  { url: 'https://cgnat.hooks.example:{port}/', why: 'name resolving to CGNAT', resolves: ['100.100.100.100'] },
  {
    url: 'https://mixed.hooks.example:{port}/',
    why: 'public then private answer',
    resolves: ['93.184.216.34', '192.168.1.20'],
  },
  {
    url: 'https://mixed-loopback.hooks.example:{port}/',
    why: 'public then loopback answer',
    resolves: ['93.184.216.34', '127.0.0.1'],
  },
  {
    url: 'https://loopback-first.hooks.example:{port}/',
    why: 'loopback then public answer',
    resolves: ['127.0.0.1', '93.184.216.34'],
  },
  {
    url: 'https://mixed6.hooks.example:{port}/',
    why: 'public IPv6 then ::1',
    resolves: ['2606:4700:4700::1111', '::1'],
  },
  {
    url: 'https://mixed-family.hooks.example:{port}/',
    why: 'public IPv4 then link-local IPv6',
    resolves: ['93.184.216.34', 'fe80::1'],
  },
  {
    url: 'https://127.0.0.1.hooks.example:{port}/',
    why: 'name that spells an address, resolving to it',
    resolves: ['127.0.0.1'],
  },
  { url: 'https://empty.hooks.example:{port}/', why: 'name with an empty answer (does not resolve)', resolves: [] },
  { url: 'https://nowhere.hooks.example:{port}/', why: 'name that does not resolve' },

  // Not URLs at all.
  { url: 'https://127.0.0.1%00.hooks.example:{port}/', why: 'NUL in host (invalid)' },
  { url: 'https://127.0.0.1：{port}/', why: 'full-width colon (invalid)' },
  { url: '//127.0.0.1:{port}/', why: 'scheme-relative (invalid)' },
  { url: '127.0.0.1:{port}', why: 'no scheme' },
];

/**
 * Public targets the guard accepts, with the host it checked. The last two put `@127.0.0.1`
 * after `#` or `?`: WHATWG reads it as fragment or query, and the deliverer connects to the
 * same URL object the guard checked, so the connection goes to the public host.
 */
export const ACCEPTED_URLS: Array<{ url: string; host: string; resolves?: string[] }> = [
  { url: 'https://93.184.216.34/hook', host: '93.184.216.34' },
  { url: 'https://[2606:4700:4700::1111]/hook', host: '2606:4700:4700::1111' },
  {
    url: 'https://public.hooks.example:8443/hook?x=1',
    host: 'public.hooks.example',
    resolves: ['93.184.216.34', '2606:4700:4700::1111'],
  },
  { url: 'https://public.hooks.example#@127.0.0.1/', host: 'public.hooks.example' },
  { url: 'https://public.hooks.example/?@127.0.0.1/', host: 'public.hooks.example' },
];

/** The form with its `{port}` placeholder filled in. */
export function formUrl(url: string, port: number | string = 8443): string {
  return url.replaceAll('{port}', String(port));
}

export function resolverTable(): Record<string, string[]> {
  const table: Record<string, string[]> = {};
  for (const { url, resolves } of [...REFUSED_URLS, ...ACCEPTED_URLS]) {
    if (resolves) table[new URL(formUrl(url)).hostname] = resolves;
  }
  return table;
}
