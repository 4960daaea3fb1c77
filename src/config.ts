import { availableParallelism } from 'node:os';
import ipaddr from 'ipaddr.js';
import { type OidcConfig, oidcConfigFrom } from './identity/oidc-config.ts';

/** Runtime configuration, read once from the environment. Every variable is documented in docs/operating/configuration.md (a test checks it). */
export interface Config {
  databaseUrl: string;
  /** PostgreSQL: connections each process' pool may hold (its LISTEN connection comes on top). */
  databasePoolSize: number;
  host: string;
  port: number;
  logLevel: string;
  publicBaseUrl: string | null;
  redisUrl: string | null;
  rateLimit: {
    tokenBurst: number;
    tokenBurstWindowSeconds: number;
    orgHourly: number;
    /** Percent of orgHourly one account (all its tokens and sessions) may use in an hour, so nobody exhausts their organization's budget. */
    accountHourlySharePercent: number;
    searchPerMinute: number;
  };
  idempotency: {
    ttlSeconds: number;
    leaseSeconds: number;
  };
  bodyLimitBytes: number;
  /** On SIGTERM/SIGINT, in-flight requests get this long to finish before their connections are cut. */
  shutdownTimeoutSeconds: number;
  /** Where a worker-only process answers /healthz and /readyz; null: it serves no HTTP at all. */
  workerHealthPort: number | null;
  /** `serve` runs the API and the worker (`all`), or the API alone (`api`: SERVE_ROLE=api or `serve --api-only`). */
  serveRole: 'all' | 'api';
  metricsToken: string | null;
  /** Serve /metrics without a token when METRICS_TOKEN is unset (otherwise it is closed). */
  metricsPublic: boolean;
  webhooks: {
    /** Encrypts endpoint signing secrets at rest; null means a per-installation key kept in the database. */
    secretKey: string | null;
    /** Development and tests only: allows http:// and loopback/private targets. */
    allowPrivateTargets: boolean;
    /** Ports a webhook URL may name besides 443 (https' default). */
    allowedPorts: number[];
    /** Total deadline of one delivery attempt: 5 s (docs/api/webhooks.md, "Receiving webhooks"). */
    attemptTimeoutMs: number;
    /** A claimed attempt whose worker died is due again after this long. */
    leaseMs: number;
    /** Finished deliveries (and outbox events nothing references) are purged after this many days. */
    retentionDays: number;
  };
  retention: {
    /** Changes-feed records superseded by a later record of their task, and deletion records, are purged after this many days. */
    changesDays: number;
    /** live_events rows (the live stream's resume points) are purged after this many hours. */
    liveEventsHours: number;
    /** Audit log records are purged after this many days. */
    auditDays: number;
  };
  scheduler: {
    /** task.due_soon fires when the end of a task's due date is this close. */
    dueSoonWindowHours: number;
    /** task.escalated fires for a task left unchanged this long in an in_progress-category status. */
    escalateAfterDays: number;
  };
  smtp: {
    url: string | null;
    from: string;
  };
  notifications: {
    /** Notifications of one reason within this long of the first are e-mailed together, this long after it. */
    emailDelaySeconds: number;
  };
  /**
   * The proxies in front of the service whose X-Forwarded-* headers are believed (client
   * address, https, host): none (false), the nearest `n` hops, or these addresses and ranges.
   */
  trustProxy: TrustProxy;
  sessions: {
    /** A session unused this long ends. */
    idleMs: number;
    /** A session ends this long after sign-in, however much it is used. */
    absoluteMs: number;
  };
  passwords: {
    /** Password hashes and verifications a process runs at once; the rest wait in a queue. */
    hashConcurrency: number;
    /** Password checks that may wait for a turn; beyond, 503 at once. */
    hashQueue: number;
  };
  signIn: {
    /** Failed sign-ins allowed per account (e-mail address) within the window, then 429. */
    perAccount: number;
    /** Failed sign-ins allowed per client address within the window, then 429. */
    perAddress: number;
    windowSeconds: number;
  };
  links: {
    /** Lifetime of an invitation link. */
    invitationMs: number;
    /** Lifetime of a password reset link. */
    passwordResetMs: number;
    /** Lifetime of the first-run setup link `serve` prints. */
    setupMs: number;
  };
  live: {
    /** A `: keep-alive` comment this often keeps proxies from closing a quiet stream. */
    heartbeatMs: number;
    /** SQLite: how often an open stream's process looks for rows written by another process. */
    pollMs: number;
    /** Open live streams one person may hold at once in a process, whatever their sessions. */
    maxStreamsPerPerson: number;
    /** Open live streams the people of one organization may hold at once in a process. */
    maxStreamsPerOrganization: number;
  };
  /** OpenID Connect sign-in (docs/operating/oidc.md); null when OIDC_ISSUER is not set. */
  oidc: OidcConfig | null;
  attachments: {
    /** Directory holding uploaded files, each under a server-generated name. */
    dir: string;
    /** Largest accepted upload; a larger one is refused with 413. */
    maxBytes: number;
  };
}

function intFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) {
    throw new Error(`${name} must be a non-negative integer, got "${raw}"`);
  }
  return value;
}

function boolFrom(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').trim().toLowerCase();
  if (['', '0', 'false', 'no', 'off'].includes(raw)) return false;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  throw new Error(`${name} must be true or false, got "${env[name]}"`);
}

function serveRoleFrom(env: NodeJS.ProcessEnv): 'all' | 'api' {
  const raw = (env.SERVE_ROLE ?? '').trim();
  if (raw === '' || raw === 'all') return 'all';
  if (raw === 'api') return 'api';
  throw new Error(`SERVE_ROLE must be all or api, got "${raw}"`);
}

export type TrustProxy = false | number | string[];

/** The names proxy-addr knows for the private ranges, besides addresses and CIDR ranges. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: off, `true` (one hop: the proxy right in front), a number of hops, or a
 * comma-separated list of proxy addresses and ranges. Never "every hop": whoever sends a
 * request writes the X-Forwarded-For entries left of the ones their proxies add.
 */
function trustProxyFrom(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim();
  if (['', '0', 'false', 'no', 'off'].includes(raw.toLowerCase())) return false;
  if (['true', 'yes', 'on'].includes(raw.toLowerCase())) return 1;
  if (/^\d+$/.test(raw)) return Number(raw);
  const entries = raw.split(',').map((entry) => entry.trim());
  const bad = entries.find((entry) => !PROXY_RANGE_NAMES.includes(entry) && !isAddressOrRange(entry));
  if (bad !== undefined)
    throw new Error(
      `TRUST_PROXY must be false, true, a number of proxy hops, or a comma-separated list of proxy addresses or ranges, got "${bad}"`,
    );
  return entries;
}

function isAddressOrRange(entry: string): boolean {
  if (ipaddr.isValid(entry)) return true;
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

function positiveFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = intFrom(env, name, fallback);
  if (value === 0) throw new Error(`${name} must be at least 1`);
  return value;
}

function percentFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const value = positiveFrom(env, name, fallback);
  if (value > 100) throw new Error(`${name} is a percentage (1-100), got "${env[name]}"`);
  return value;
}

/** RATE_LIMIT_ACCOUNT_HOURLY_SHARE, or its deprecated name from when the share was per token. */
function accountShareFrom(env: NodeJS.ProcessEnv): number {
  if (env.RATE_LIMIT_ACCOUNT_HOURLY_SHARE) return percentFrom(env, 'RATE_LIMIT_ACCOUNT_HOURLY_SHARE', 20);
  return percentFrom(env, 'RATE_LIMIT_TOKEN_HOURLY_SHARE', 20);
}

/** A comma-separated list of TCP ports (1-65535). */
function portsFrom(env: NodeJS.ProcessEnv, name: string): number[] {
  const parts = (env[name] ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  return parts.map((part) => {
    const port = /^\d{1,5}$/.test(part) ? Number(part) : NaN;
    if (!(port >= 1 && port <= 65535))
      throw new Error(`${name} must list ports (1-65535) separated by commas, got "${env[name]}"`);
    return port;
  });
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function logLevelFrom(env: NodeJS.ProcessEnv): string {
  const level = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(level)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${level}"`);
  return level;
}

function databaseUrlFrom(env: NodeJS.ProcessEnv): string {
  const url = env.DATABASE_URL || 'sqlite:./data/tasktracker.db';
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(url)) {
    throw new Error(
      'DATABASE_URL must be sqlite:<path> (e.g. sqlite:./data/tasktracker.db) or postgres://user@host:5432/db',
    );
  }
  return url;
}

/** A pool larger than this is a typo: PostgreSQL's own default max_connections is 100 for the whole server. */
const MAX_POOL_SIZE = 1000;

function poolSizeFrom(env: NodeJS.ProcessEnv): number {
  const size = positiveFrom(env, 'DATABASE_POOL_SIZE', 10);
  if (size > MAX_POOL_SIZE)
    throw new Error(`DATABASE_POOL_SIZE must be between 1 and ${MAX_POOL_SIZE}, got "${env.DATABASE_POOL_SIZE}"`);
  return size;
}

function urlFrom(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name];
  if (!raw) return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new Error(`${name} must be an absolute http(s) URL such as https://tracker.example.com, got "${raw}"`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

function portFrom(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const port = intFrom(env, name, fallback);
  if (port > 65535) throw new Error(`${name} must be between 0 and 65535, got "${env[name]}"`);
  return port;
}

const WEBHOOK_ATTEMPT_TIMEOUT_MS = 5000;
/** Password hashing leaves the other half of the cores to everything else (docs/operating/security.md#passwords). */
const HALF_THE_CORES = Math.max(1, Math.floor(availableParallelism() / 2));
const HOUR_MS = 60 * 60 * 1000;

/** A lease no longer than an attempt would let a second worker re-run an attempt that is still going. */
function webhookLeaseMs(env: NodeJS.ProcessEnv): number {
  const seconds = positiveFrom(env, 'WEBHOOK_LEASE_SECONDS', 60);
  if (seconds * 1000 <= WEBHOOK_ATTEMPT_TIMEOUT_MS) {
    throw new Error(
      `WEBHOOK_LEASE_SECONDS must be longer than an attempt (${WEBHOOK_ATTEMPT_TIMEOUT_MS / 1000} s), got "${env.WEBHOOK_LEASE_SECONDS}"`,
    );
  }
  return seconds * 1000;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const publicBaseUrl = urlFrom(env, 'PUBLIC_BASE_URL');
  return {
    databaseUrl: databaseUrlFrom(env),
    databasePoolSize: poolSizeFrom(env),
    host: env.HOST || '0.0.0.0',
    port: portFrom(env, 'PORT', 8080),
    logLevel: logLevelFrom(env),
    publicBaseUrl,
    redisUrl: env.REDIS_URL || null,
    rateLimit: {
      tokenBurst: intFrom(env, 'RATE_LIMIT_TOKEN_BURST', 100),
      tokenBurstWindowSeconds: 10,
      orgHourly: intFrom(env, 'RATE_LIMIT_ORG_HOURLY', 5000),
      accountHourlySharePercent: accountShareFrom(env),
      searchPerMinute: intFrom(env, 'RATE_LIMIT_SEARCH_PER_MINUTE', 60),
    },
    idempotency: {
      ttlSeconds: 24 * 60 * 60,
      leaseSeconds: intFrom(env, 'IDEMPOTENCY_LEASE_SECONDS', 60),
    },
    bodyLimitBytes: 1024 * 1024,
    shutdownTimeoutSeconds: positiveFrom(env, 'SHUTDOWN_TIMEOUT_SECONDS', 10),
    workerHealthPort: env.WORKER_HEALTH_PORT ? portFrom(env, 'WORKER_HEALTH_PORT', 0) : null,
    serveRole: serveRoleFrom(env),
    metricsToken: env.METRICS_TOKEN || null,
    metricsPublic: boolFrom(env, 'METRICS_PUBLIC'),
    webhooks: {
      secretKey: env.WEBHOOK_SECRET_KEY || null,
      allowPrivateTargets: boolFrom(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS'),
      allowedPorts: portsFrom(env, 'WEBHOOK_ALLOWED_PORTS'),
      attemptTimeoutMs: WEBHOOK_ATTEMPT_TIMEOUT_MS,
      leaseMs: webhookLeaseMs(env),
      retentionDays: positiveFrom(env, 'WEBHOOK_RETENTION_DAYS', 30),
    },
    retention: {
      changesDays: positiveFrom(env, 'CHANGES_RETENTION_DAYS', 90),
      liveEventsHours: positiveFrom(env, 'LIVE_EVENTS_RETENTION_HOURS', 24),
      auditDays: positiveFrom(env, 'AUDIT_RETENTION_DAYS', 365),
    },
    scheduler: {
      dueSoonWindowHours: positiveFrom(env, 'DUE_SOON_WINDOW_HOURS', 24),
      escalateAfterDays: positiveFrom(env, 'ESCALATE_AFTER_DAYS', 3),
    },
    smtp: {
      url: env.SMTP_URL || null,
      from: env.SMTP_FROM || 'tasktracker <tasktracker@localhost>',
    },
    notifications: {
      emailDelaySeconds: intFrom(env, 'NOTIFICATION_EMAIL_DELAY_SECONDS', 60),
    },
    trustProxy: trustProxyFrom(env),
    sessions: {
      idleMs: positiveFrom(env, 'SESSION_IDLE_HOURS', 7 * 24) * HOUR_MS,
      absoluteMs: positiveFrom(env, 'SESSION_MAX_DAYS', 30) * 24 * HOUR_MS,
    },
    passwords: {
      hashConcurrency: positiveFrom(env, 'PASSWORD_HASH_CONCURRENCY', HALF_THE_CORES),
      hashQueue: intFrom(env, 'PASSWORD_HASH_QUEUE', 32),
    },
    signIn: {
      perAccount: positiveFrom(env, 'SIGN_IN_FAILURES_PER_ACCOUNT', 10),
      perAddress: positiveFrom(env, 'SIGN_IN_FAILURES_PER_ADDRESS', 50),
      windowSeconds: 15 * 60,
    },
    links: {
      invitationMs: positiveFrom(env, 'INVITATION_TTL_HOURS', 7 * 24) * HOUR_MS,
      passwordResetMs: 60 * 60 * 1000,
      setupMs: 24 * HOUR_MS,
    },
    live: {
      heartbeatMs: 15_000,
      pollMs: 250,
      maxStreamsPerPerson: positiveFrom(env, 'LIVE_MAX_STREAMS_PER_PERSON', 5),
      maxStreamsPerOrganization: positiveFrom(env, 'LIVE_MAX_STREAMS_PER_ORGANIZATION', 500),
    },
    oidc: oidcConfigFrom(env, publicBaseUrl),
    attachments: {
      dir: env.ATTACHMENTS_DIR || './data/attachments',
      maxBytes: intFrom(env, 'ATTACHMENT_MAX_BYTES', 25 * 1024 * 1024),
    },
  };
}

/** The URL people reach the service at: PUBLIC_BASE_URL, else this host and port. */
export function serviceBaseUrl(
  config: Pick<Config, 'publicBaseUrl' | 'host' | 'port'>,
  port: number = config.port,
): string {
  if (config.publicBaseUrl) return config.publicBaseUrl.replace(/\/+$/, '');
  const host = ['0.0.0.0', '::', ''].includes(config.host)
    ? 'localhost'
    : config.host.includes(':')
      ? `[${config.host}]`
      : config.host;
  return `http://${host}:${port}`;
}
