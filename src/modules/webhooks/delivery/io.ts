/**
 * The outside world of webhook delivery (DNS, TLS trust), in one place so tests can inject each
 * seam: a resolver that answers "public" at save time and "private" at delivery time, a test CA
 * for local HTTPS receivers. People's e-mail has its own transport (src/mail/).
 */
import type { AppContext } from '../../../context.ts';
import { type Resolver, systemResolver } from './url-guard.ts';

export interface WebhookIo {
  resolve: Resolver;
  /**
   * Certificates trusted for receivers instead of the system roots (node's `ca` option).
   * Only tests set it, to trust their own CA; TLS verification itself is never turned off.
   */
  ca?: string | Buffer | Array<string | Buffer>;
}

/** The configured seams, built once per context (src/context.ts). */
export function defaultWebhookIo(): WebhookIo {
  return { resolve: systemResolver };
}

/** The context's seams: its overrides (`ctx.webhookIo`) over the configured defaults. */
export function webhookIo(ctx: AppContext): WebhookIo {
  return { ...ctx.io, ...ctx.webhookIo };
}
