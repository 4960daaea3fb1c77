import type { TrustProxy } from '../config.ts';

/**
 * TRUST_PROXY as Fastify's `trustProxy` option. A number of hops is a function: Fastify itself
 * refuses to trust a bare hop count (it trusts nothing then), since the nearest peer cannot be
 * checked; an operator who sets one states that every request comes through that many proxies
 * (docs/operating/reverse-proxy.md).
 */
export function fastifyTrustProxy(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}
