import { ApiError } from '../http/errors.ts';

/**
 * Bounds the password hashing of a process (argon2 hashes and verifications): at most
 * `concurrency` run at once, at most `maxWaiting` wait their turn, and anything beyond is
 * refused at once with 503 SERVICE_UNAVAILABLE. argon2 runs on libuv's thread pool, each run a
 * whole core for tens of milliseconds; unbounded, a flood of password forms would take every
 * core (and the pool's threads, which file reads share), so that signed-in people's reads wait
 * behind it. Counters say how much work it did, for tests and metrics.
 */
export class HashingQueue {
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  /** Runs started since the process began. */
  started = 0;
  /** Requests refused because the queue was full. */
  refused = 0;
  /** The most runs ever in progress at once. */
  peak = 0;

  constructor(
    readonly concurrency: number,
    readonly maxWaiting: number,
  ) {}

  /** Runs waiting for a turn now. */
  get waitingCount(): number {
    return this.waiting.length;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) this.running++;
    else {
      if (this.waiting.length >= this.maxWaiting) {
        this.refused++;
        throw new ApiError('SERVICE_UNAVAILABLE', 'Too many password checks are waiting; retry in a moment.', {
          retry_after: 1,
        });
      }
      // The run that finishes hands its slot over, so nobody slips in between.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.started++;
    this.peak = Math.max(this.peak, this.running);
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
