/**
 * The SSRF guard for webhook endpoint URLs (docs/api/webhooks.md, "Webhook URLs"). Checked when
 * an endpoint is saved and again on every delivery attempt, against every address the name
 * resolves to; the deliverer then connects to one of exactly those checked addresses, so a
 * rebinding DNS server gets no second lookup to answer differently.
 */
import dns from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address a connection could use. Injected by tests. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** getaddrinfo, like an ordinary connection would use (so /etc/hosts is honoured, and checked). */
export const systemResolver: Resolver = async (hostname) => {
  const rows = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return rows.map((row) => ({ address: row.address, family: row.family === 6 ? 6 : 4 }));
};

/** Why a URL or address is refused; the message is shown to the API caller or in the attempt log. */
export class UnsafeTargetError extends Error {
  override readonly name = 'UnsafeTargetError';
}

export interface GuardOptions {
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: plain http and private/loopback addresses (development, tests). */
  allowPrivate: boolean;
  /** WEBHOOK_ALLOWED_PORTS: ports allowed besides 443 (any port when allowPrivate). */
  allowedPorts?: readonly number[];
  resolve: Resolver;
  /** Aborts a slow resolution (the delivery attempt's total deadline). */
  signal?: AbortSignal;
}

export interface CheckedTarget {
  url: URL;
  /** Host name without IPv6 brackets. */
  hostname: string;
  /** Every address the host resolved to, all checked; a literal host is its own single address. */
  addresses: ResolvedAddress[];
}

const IPV4_REASONS: Record<string, string> = {
  unspecified: 'an unspecified address (0.0.0.0/8)',
  broadcast: 'the broadcast address',
  multicast: 'a multicast address',
  linkLocal: 'a link-local address (169.254.0.0/16, where cloud metadata services live)',
  loopback: 'a loopback address',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  private: 'a private (RFC 1918) address',
  reserved: 'a reserved address',
};

const IPV6_REASONS: Record<string, string> = {
  unspecified: 'the unspecified address (::)',
  linkLocal: 'a link-local address (fe80::/10)',
  multicast: 'a multicast address',
  loopback: 'the loopback address (::1)',
  uniqueLocal: 'a unique local address (fc00::/7)',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  reserved: 'a reserved address',
};

// Only global unicast space is assigned to public hosts; ::/96 (IPv4-compatible), NAT64,
// 6to4 and similar embeddings of IPv4 all fall outside it or in ipaddr's special ranges.
const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const IPV4_COMPATIBLE_V6 = ipaddr.parseCIDR('::/96');

/** Null when a public host may be contacted at `address`, otherwise why not. */
export function forbiddenAddressReason(address: string): string | null {
  const version = isIP(address);
  if (version === 0) return `"${address}" is not an IP address`;
  const parsed = ipaddr.parse(address);
  const range = parsed.range();
  if (parsed.kind() === 'ipv4') {
    return range === 'unicast' ? null : (IPV4_REASONS[range] ?? `a special-purpose address (${range})`);
  }
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return `${IPV6_REASONS.ipv4Mapped} (of ${v6.toIPv4Address().toString()})`;
  if (range === 'unicast' && v6.match(IPV4_COMPATIBLE_V6)) return 'an IPv4-compatible IPv6 address (::/96)';
  if (range !== 'unicast') return IPV6_REASONS[range] ?? `a special-purpose address (${range})`;
  if (!v6.match(GLOBAL_UNICAST_V6)) return 'an address outside global unicast space (2000::/3)';
  return null;
}

/** The host as typed in the URL (before WHATWG normalisation), lowercased, without port or brackets. */
function rawHost(raw: string): string {
  const afterScheme = raw.replace(/^[a-z][a-z0-9+.-]*:[\\/]*/i, '');
  const authority = afterScheme.split(/[/?#\\]/, 1)[0] ?? '';
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const host = hostPort.startsWith('[') ? hostPort.slice(1, hostPort.indexOf(']')) : hostPort.replace(/:\d*$/, '');
  return host.toLowerCase();
}

/**
 * Syntax-level checks that need no DNS: scheme, credentials, and numeric host forms. WHATWG
 * URL parsing turns `2130706433`, `0x7f.1` and `0177.0.0.1` into `127.0.0.1`; a host that only
 * became a dotted quad through that normalisation is refused even when it lands on a public
 * address, because nobody writes a legitimate endpoint that way.
 */
export function parseEndpointUrl(raw: string, allowPrivate: boolean, allowedPorts: readonly number[] = []): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeTargetError('is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    throw new UnsafeTargetError('must use https');
  }
  if (url.username || url.password) throw new UnsafeTargetError('must not contain credentials');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(hostname) === 4 && rawHost(raw) !== hostname) {
    throw new UnsafeTargetError(
      `uses a numeric host form (decimal, octal or hex) of ${hostname}; write the address in dotted decimal or use a host name`,
    );
  }
  // `localhost.` is the same name as `localhost` (fully qualified); WHATWG keeps the dots.
  const name = hostname.replace(/\.+$/, '');
  if (!allowPrivate && (name === 'localhost' || name.endsWith('.localhost'))) {
    throw new UnsafeTargetError('must not point at localhost');
  }
  // Only https' own port by default: a receiver on any port of a public host would turn the
  // worker into a port scanner of internet hosts and reach services never meant for webhooks.
  const port = url.port === '' ? 443 : Number(url.port);
  if (!allowPrivate && port !== 443 && !allowedPorts.includes(port)) {
    throw new UnsafeTargetError(
      `must use port 443${allowedPorts.length ? ` or one of ${allowedPorts.join(', ')}` : ''} (WEBHOOK_ALLOWED_PORTS)`,
    );
  }
  return url;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Parses, resolves and checks a URL; throws UnsafeTargetError naming the first problem. */
export async function checkTarget(raw: string, options: GuardOptions): Promise<CheckedTarget> {
  const url = parseEndpointUrl(raw, options.allowPrivate, options.allowedPorts);
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(hostname);
  let addresses: ResolvedAddress[];
  if (literal) {
    // A connection to an IP-literal host never calls `lookup`, so the literal is checked here.
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await abortable(options.resolve(hostname), options.signal);
    } catch (error) {
      if (options.signal?.aborted) throw new UnsafeTargetError(`host ${hostname} did not resolve within the deadline`);
      throw new UnsafeTargetError(
        `host ${hostname} does not resolve (${(error as { code?: string }).code ?? 'lookup failed'})`,
      );
    }
    if (addresses.length === 0) throw new UnsafeTargetError(`host ${hostname} does not resolve`);
  }
  if (!options.allowPrivate) {
    for (const { address } of addresses) {
      const reason = forbiddenAddressReason(address);
      if (reason) {
        throw new UnsafeTargetError(
          literal ? `must not target ${reason}` : `host ${hostname} resolves to ${address}, ${reason}`,
        );
      }
    }
  }
  return { url, hostname, addresses };
}
