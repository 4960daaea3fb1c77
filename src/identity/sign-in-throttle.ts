import type { FastifyReply } from 'fastify';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../config.ts';
import { RateLimitedError, type RateLimits, rateLimitHeaders } from '../http/rate-limit.ts';

/**
 * Throttles the public password forms: sign-in, first-run setup, accepting an invitation and
 * completing a password reset. Each attempt is counted per client address (the forms share
 * the count) and, for sign-in, per account (the e-mail address as typed, so unknown addresses
 * count exactly like known ones), in the rate limiter's store (Redis when REDIS_URL is set, so
 * every API process shares the counts). The attempt is counted before any password hashing,
 * in one atomic step, so concurrent attempts cannot slip past the limit together; a successful
 * one gives its point back, so only failures add up. Past a limit the form answers 429 until
 * the window has passed, whatever the password.
 */
export class SignInThrottle {
  private readonly account: RateLimiterAbstract;
  private readonly address: RateLimiterAbstract;

  constructor(
    limits: RateLimits,
    private readonly config: Config['signIn'],
  ) {
    this.account = limits.limiter('signin:account', config.perAccount, config.windowSeconds);
    this.address = limits.limiter('signin:address', config.perAddress, config.windowSeconds);
  }

  /** Counts one attempt from `ip` (and on `email`'s account for sign-in), or answers 429. */
  async attempt(reply: FastifyReply, ip: string, email?: string): Promise<Attempt> {
    await this.take(reply, this.address, ip, this.config.perAddress);
    if (email !== undefined) {
      try {
        await this.take(reply, this.account, accountKey(email), this.config.perAccount);
      } catch (error) {
        // Refused before any password work: not a failure of this address.
        await this.address.reward(ip, 1);
        throw error;
      }
    }
    return {
      succeeded: async () => {
        await this.address.reward(ip, 1);
        if (email !== undefined) await this.account.delete(accountKey(email));
      },
    };
  }

  /** Other unauthenticated requests that could be abused in bulk (password reset requests) spend the address's budget. */
  async spendAddress(reply: FastifyReply, ip: string): Promise<void> {
    await this.take(reply, this.address, ip, this.config.perAddress);
  }

  private async take(reply: FastifyReply, limiter: RateLimiterAbstract, key: string, limit: number): Promise<void> {
    try {
      await limiter.consume(key, 1);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const state = { limit, remaining: 0, resetSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      reply.headers({ ...rateLimitHeaders(state), 'retry-after': String(state.resetSeconds) });
      throw new RateLimitedError(state);
    }
  }
}

/** An attempt counted against the limits; a success gives its point back. */
export interface Attempt {
  succeeded(): Promise<void>;
}

const accountKey = (email: string) => email.trim().toLowerCase();
