import type { FastifyReply } from 'fastify';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Config } from '../../config.ts';
import { RateLimitedError, type RateLimits, rateLimitHeaders } from '../../http/rate-limit.ts';

/**
 * Failed sign-ins are counted per account (the e-mail address as typed, so unknown addresses
 * count exactly like known ones) and per client address, in the rate limiter's store (Redis
 * when REDIS_URL is set, so every API process shares the counts). Past the limit, sign-in
 * answers 429 until the window has passed, whatever the password. A success clears the
 * account's count.
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

  /** 429 when either count is used up. */
  async check(reply: FastifyReply, email: string, ip: string): Promise<void> {
    const [account, address] = await Promise.all([this.account.get(accountKey(email)), this.address.get(ip)]);
    const blocked = [
      [account, this.config.perAccount],
      [address, this.config.perAddress],
    ].find(([res, limit]) => res && typeof res === 'object' && res.consumedPoints >= (limit as number)) as
      [{ msBeforeNext: number }, number] | undefined;
    if (!blocked) return;
    const state = {
      limit: blocked[1],
      remaining: 0,
      resetSeconds: Math.max(1, Math.ceil(blocked[0].msBeforeNext / 1000)),
    };
    reply.headers({ ...rateLimitHeaders(state), 'retry-after': String(state.resetSeconds) });
    throw new RateLimitedError(state);
  }

  async failed(email: string, ip: string): Promise<void> {
    await Promise.all([this.account.penalty(accountKey(email), 1), this.address.penalty(ip, 1)]);
  }

  async succeeded(email: string): Promise<void> {
    await this.account.delete(accountKey(email));
  }

  /** Other unauthenticated requests that could be abused in bulk (password reset requests) spend the address's budget. */
  async spendAddress(reply: FastifyReply, ip: string): Promise<void> {
    await this.check(reply, '', ip);
    await this.address.penalty(ip, 1);
  }
}

const accountKey = (email: string) => email.trim().toLowerCase();
