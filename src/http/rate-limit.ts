import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import { ConnectionHealth, type HealthLog } from '../db/connection-health.ts';
import { ApiError } from './errors.ts';

/**
 * The two tiers of docs/api/conventions.md, "Rate limits" (per-token burst, per-organization
 * sustained) plus search's own bucket. The sustained tier is shared fairly: one account (a
 * person or a service account, all its tokens and sessions together) may use at most its share
 * (RATE_LIMIT_ACCOUNT_HOURLY_SHARE percent) of its organization's hourly budget, and a request
 * refused by the caller's own limits takes nothing from the organization's, so nobody locks the
 * rest of their organization out, however many tokens they make or sessions they open. Owners
 * and admins on the console spend only their burst, so they can still act (remove whoever
 * spent the budget) when it is gone. Counters live in memory, or in Redis when REDIS_URL is set
 * so several API processes share them; if Redis fails the in-memory limiter insures it rather
 * than failing requests, and /readyz says so (`rate_limits: memory_fallback`).
 */
export type Bucket = 'default' | 'search';

export interface RateLimitState {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** Who a request's limits are counted for. */
export interface RateLimitedCaller {
  /** The credential: `t<token id>` or `s<session id>`. */
  credential: string;
  accountId: number;
  organizationId: number;
  /** Spends only the credential's burst: an owner's or admin's console request. */
  burstOnly: boolean;
}

/** Where the counters are: this process' memory (no REDIS_URL), Redis, or memory because Redis is unreachable. */
export type RateLimitStore = 'memory' | 'redis' | 'memory_fallback';

interface Tier {
  limiter: RateLimiterAbstract;
  points: number;
}

export class RateLimits {
  private readonly redis: Redis | null;
  private readonly tokenBurst: Tier;
  private readonly accountHourly: Tier;
  private readonly orgSustained: Tier;
  private readonly search: Tier;
  private closing = false;

  constructor(config: Config, log: HealthLog) {
    this.redis = config.redisUrl
      ? new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 })
      : null;
    if (this.redis) {
      // ioredis reports every failed (re)connection attempt as an 'error' event, and prints it
      // raw when nobody listens: here an outage is one line when it starts and one when it ends.
      const health = new ConnectionHealth('rate_limit_redis', {
        lost: 'rate limits: Redis is unreachable; counting in this process (local counters) until it is back',
        restored: 'rate limits: Redis is reachable again; counters are shared again',
      });
      health.useLogger(log);
      this.redis.on('error', (error: Error) => health.lost(error));
      this.redis.on('close', () => {
        if (!this.closing) health.lost(new Error('Connection closed'));
      });
      this.redis.on('ready', () => health.restored());
    }
    const rl = config.rateLimit;
    this.tokenBurst = this.tier('rl:token', rl.tokenBurst, rl.tokenBurstWindowSeconds);
    this.accountHourly = this.tier(
      'rl:account-hour',
      Math.max(1, Math.floor((rl.orgHourly * rl.accountHourlySharePercent) / 100)),
      3600,
    );
    this.orgSustained = this.tier('rl:org', rl.orgHourly, 3600);
    this.search = this.tier('rl:search', rl.searchPerMinute, 60);
  }

  private tier(keyPrefix: string, points: number, duration: number): Tier {
    const memory = new RateLimiterMemory({ keyPrefix, points, duration });
    const limiter = this.redis
      ? new RateLimiterRedis({ storeClient: this.redis, keyPrefix, points, duration, insuranceLimiter: memory })
      : memory;
    return { limiter, points };
  }

  /**
   * Takes one request from the caller's budgets, tier after tier (a refusal spends nothing
   * further), or throws 429 RATE_LIMITED. Search has its own per-token tier instead of the
   * burst, and counts toward the account's share and the organization's budget like any request.
   */
  async consume(bucket: Bucket, caller: RateLimitedCaller): Promise<RateLimitState> {
    const states = [await consumeTier(bucket === 'search' ? this.search : this.tokenBurst, caller.credential)];
    if (!caller.burstOnly) {
      states.push(await consumeTier(this.accountHourly, `a${caller.accountId}`));
      states.push(await consumeTier(this.orgSustained, `o${caller.organizationId}`));
    }
    return states.reduce((closest, state) => (state.remaining < closest.remaining ? state : closest));
  }

  /** A limiter sharing this process's store (Redis when configured), for counters other than request rates. */
  limiter(keyPrefix: string, points: number, duration: number): RateLimiterAbstract {
    return this.tier(keyPrefix, points, duration).limiter;
  }

  /** Where the counters are now (/readyz says it). */
  get store(): RateLimitStore {
    if (!this.redis) return 'memory';
    return this.redis.status === 'ready' ? 'redis' : 'memory_fallback';
  }

  async close(): Promise<void> {
    this.closing = true;
    this.redis?.disconnect();
  }
}

async function consumeTier(tier: Tier, key: string): Promise<RateLimitState> {
  try {
    const res = await tier.limiter.consume(key, 1);
    return { limit: tier.points, remaining: res.remainingPoints, resetSeconds: Math.ceil(res.msBeforeNext / 1000) };
  } catch (rejection) {
    if (!(rejection instanceof RateLimiterRes)) throw rejection;
    const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
    throw new RateLimitedError({ limit: tier.points, remaining: 0, resetSeconds: retryAfter });
  }
}

export class RateLimitedError extends ApiError {
  constructor(readonly state: RateLimitState) {
    super('RATE_LIMITED', `Rate limit exceeded. Retry after ${state.resetSeconds} seconds.`, {
      limit: state.limit,
      retry_after: state.resetSeconds,
    });
  }
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(state.remaining),
    'ratelimit-reset': String(state.resetSeconds),
  };
}
