/**
 * Keep-alive connections for delivery attempts, without loosening the SSRF pinning.
 *
 * A pool (one node Agent) belongs to one origin *and* one set of checked addresses: its
 * `lookup` answers with exactly those addresses, and an attempt uses the pool only when the
 * guard, run for that very attempt, produced exactly that set. So a pooled socket is only ever
 * reused for an attempt whose own check passed the address the socket is connected to. When a
 * host's answer changes, the origin's old pool is retired: its idle sockets are closed at once
 * and its busy ones when their request ends. An attempt whose check fails never gets a pool.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import tls, { type SecureContext } from 'node:tls';
import type { CheckedTarget, ResolvedAddress } from './url-guard.ts';

/**
 * Idle sockets are closed after this long: below the 5 s keep-alive timeout of node servers
 * (and most proxies), so the receiver rarely closes a socket just as an attempt reuses it.
 */
const IDLE_MS = 4_000;

interface Pool {
  addresses: string;
  secureContext: SecureContext | undefined;
  agent: http.Agent;
}

/** Answers every lookup with the checked addresses instead of asking DNS again. */
export function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    if (options.all) {
      (callback as (err: null, addresses: ResolvedAddress[]) => void)(null, addresses);
    } else {
      callback(null, addresses[0]!.address, addresses[0]!.family);
    }
  };
}

/** Certificates trusted for receivers (node's `ca` option); undefined for the system roots. */
export type TrustedCa = string | Buffer | Array<string | Buffer> | undefined;

export class ConnectionPools {
  private readonly pools = new Map<string, Pool>();
  /** Building a TLS context parses every trusted certificate: once per trust list, not per attempt. */
  private readonly secureContexts = new Map<TrustedCa, SecureContext>();

  /** The TLS context trusting `ca` (tests' own CA) or, without it, the system roots. */
  secureContextFor(ca: TrustedCa): SecureContext {
    let context = this.secureContexts.get(ca);
    if (!context) {
      context = tls.createSecureContext(ca ? { ca } : {});
      this.secureContexts.set(ca, context);
    }
    return context;
  }

  /** The agent for an attempt to `target`, whose addresses the guard has just checked. */
  agentFor(target: CheckedTarget, secureContext: SecureContext | undefined): http.Agent {
    const origin = `${target.url.protocol}//${target.url.host}`;
    const addresses = target.addresses
      .map((a) => a.address)
      .sort()
      .join(' ');
    const current = this.pools.get(origin);
    if (current && current.addresses === addresses && current.secureContext === secureContext) return current.agent;
    if (current) retire(current.agent);
    const options = {
      keepAlive: true,
      noDelay: true,
      timeout: IDLE_MS,
      scheduling: 'lifo' as const,
      lookup: pinnedLookup(target.addresses),
    };
    // tls.connect takes `secureContext`; @types/node does not list it on https.AgentOptions.
    const agent =
      target.url.protocol === 'http:'
        ? new http.Agent(options)
        : new https.Agent({ ...options, secureContext } as https.AgentOptions);
    this.pools.set(origin, { addresses, secureContext, agent });
    return agent;
  }

  /** Closes every pooled connection (the worker is stopping). */
  close(): void {
    for (const pool of this.pools.values()) pool.agent.destroy();
    this.pools.clear();
  }
}

function retire(agent: http.Agent): void {
  // A socket freed after this is destroyed instead of pooled (node checks `keepAlive` on free;
  // @types/node does not list the property).
  (agent as http.Agent & { keepAlive: boolean }).keepAlive = false;
  for (const sockets of Object.values(agent.freeSockets)) sockets?.forEach((socket) => socket.destroy());
}
