import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle, Db, Dialect } from './db/database.ts';
import { configuredMailer, type Mailer } from './mail/mailer.ts';
import { HashingQueue } from './identity/hashing-queue.ts';
import { defaultWebhookIo, type WebhookIo } from './modules/webhooks/delivery/io.ts';
import { ConnectionPools } from './modules/webhooks/delivery/connection-pool.ts';
import type { OidcProviderState } from './modules/oidc/oidc.client.ts';

/**
 * Per-process state that outlives a request: caches and pooled connections. Owned by the
 * context, so two contexts in one process (tests, a restart) never share any of it.
 */
export interface ContextState {
  /** The key secrets at rest are encrypted with, once derived (src/crypto/secret-box.ts). */
  secretKey?: Promise<Buffer>;
  /** Decrypted webhook signing secrets by ciphertext, so an attempt does not decrypt again. */
  readonly signingSecrets: Map<string, string>;
  /** Keep-alive connections of webhook delivery attempts. */
  readonly connectionPools: ConnectionPools;
  /** Hot statements compiled once per context (src/db/prepared.ts), by name. */
  readonly preparedStatements: Map<string, unknown>;
  /** Every password hash and verification of the process waits its turn here. */
  readonly passwordHashing: HashingQueue;
  /** The OpenID provider's discovered metadata and signing keys (src/modules/oidc/oidc.client.ts), once read. */
  oidcProvider?: Promise<OidcProviderState>;
}

/** What services, the worker and the CLI share. Built by `createAppContext` only. */
export interface AppContext {
  readonly config: Config;
  readonly clock: Clock;
  /** The open database's lifecycle: migrations, close, PostgreSQL's settings for a LISTEN connection. */
  readonly database: DatabaseHandle;
  /** Where queries go: the pool, or inside a unit of work its transaction (src/db/unit-of-work.ts). */
  db: Db;
  readonly dialect: Dialect;
  /** DNS and TLS trust of webhook delivery as configured. */
  readonly io: WebhookIo;
  /** Overrides of `io`, one seam at a time (tests, benchmarks). */
  webhookIo?: Partial<WebhookIo>;
  /** People's e-mail (src/mail/): null when SMTP_URL is not configured; tests put a recording one here. */
  mailer: Mailer | null;
  readonly state: ContextState;
}

export interface ContextParts {
  config: Config;
  database: DatabaseHandle;
  clock?: Clock;
  webhookIo?: Partial<WebhookIo>;
}

/** The composition root: every process (serve, worker, CLI, tests, benchmarks) builds its context here. */
export function createAppContext({ config, database, clock = systemClock, webhookIo }: ContextParts): AppContext {
  return {
    config,
    clock,
    database,
    db: database.db,
    dialect: database.dialect,
    io: defaultWebhookIo(),
    webhookIo,
    mailer: configuredMailer(config),
    state: {
      signingSecrets: new Map(),
      connectionPools: new ConnectionPools(),
      preparedStatements: new Map(),
      passwordHashing: new HashingQueue(config.passwords.hashConcurrency, config.passwords.hashQueue),
    },
  };
}
