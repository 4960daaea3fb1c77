/** Runtime configuration, read once from the environment. Every variable is documented in the README. */
export interface Config {
  databaseUrl: string;
  host: string;
  port: number;
  logLevel: string;
  publicBaseUrl: string | null;
  redisUrl: string | null;
  rateLimit: {
    tokenBurst: number;
    tokenBurstWindowSeconds: number;
    orgHourly: number;
    searchPerMinute: number;
  };
  idempotency: {
    ttlSeconds: number;
    leaseSeconds: number;
  };
  bodyLimitBytes: number;
  metricsToken: string | null;
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

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    databaseUrl: env.DATABASE_URL || 'sqlite:./data/tasktracker.db',
    host: env.HOST || '0.0.0.0',
    port: intFrom(env, 'PORT', 8080),
    logLevel: env.LOG_LEVEL || 'info',
    publicBaseUrl: env.PUBLIC_BASE_URL || null,
    redisUrl: env.REDIS_URL || null,
    rateLimit: {
      tokenBurst: intFrom(env, 'RATE_LIMIT_TOKEN_BURST', 100),
      tokenBurstWindowSeconds: 10,
      orgHourly: intFrom(env, 'RATE_LIMIT_ORG_HOURLY', 5000),
      searchPerMinute: intFrom(env, 'RATE_LIMIT_SEARCH_PER_MINUTE', 60),
    },
    idempotency: {
      ttlSeconds: 24 * 60 * 60,
      leaseSeconds: intFrom(env, 'IDEMPOTENCY_LEASE_SECONDS', 60),
    },
    bodyLimitBytes: 1024 * 1024,
    metricsToken: env.METRICS_TOKEN || null,
    attachments: {
      dir: env.ATTACHMENTS_DIR || './data/attachments',
      maxBytes: intFrom(env, 'ATTACHMENT_MAX_BYTES', 25 * 1024 * 1024),
    },
  };
}
