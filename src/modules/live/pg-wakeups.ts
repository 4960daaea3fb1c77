import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { ConnectionHealth } from '../../db/connection-health.ts';

/** The channel migration 0014's trigger notifies when live_events rows commit. */
export const LIVE_CHANNEL = 'tasktracker_live';

const RETRY_MS = [250, 500, 1000, 2000, 5000];

/**
 * One dedicated PostgreSQL connection per process that LISTENs for commits of live_events
 * rows from any process. A notification carries nothing: it only says "read again", so a lost
 * one costs latency, never data. The connection is re-opened with backoff when it drops, and
 * every (re)connect wakes the readers once, for what committed while nobody listened. An
 * outage is logged twice, when the connection is lost and when it is back, not at every retry.
 */
export class PgWakeups {
  private client: pg.Client | null = null;
  private retry: NodeJS.Timeout | null = null;
  private failures = 0;
  private stopped = false;
  private readonly health = new ConnectionHealth('live_listen');

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly wake: () => void,
    log: FastifyBaseLogger,
  ) {
    this.health.useLogger(log);
  }

  start(): void {
    if (this.client || this.retry || this.stopped) return;
    void this.connect();
  }

  private async connect(): Promise<void> {
    this.retry = null;
    // The config asks for TCP keep-alive: a connection lost without a reset (a dead host) still ends, and is re-opened.
    const client = new pg.Client(this.config);
    this.client = client;
    let settled = false;
    const lost = (error?: Error) => {
      if (settled) return;
      settled = true;
      if (this.client === client) this.client = null;
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      const delay = RETRY_MS[Math.min(this.failures++, RETRY_MS.length - 1)]!;
      this.health.lost(error ?? new Error('Connection terminated unexpectedly'));
      this.retry = setTimeout(() => void this.connect(), delay);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', () => this.wake());
    try {
      await client.connect();
      // Told apart from the pool's connections in pg_stat_activity.
      await client.query(
        `SELECT set_config('application_name', current_setting('application_name') || '-listen', false)`,
      );
      await client.query(`LISTEN ${LIVE_CHANNEL}`);
    } catch (error) {
      lost(error as Error);
      return;
    }
    if (this.stopped) return void client.end().catch(() => undefined);
    this.failures = 0;
    this.health.restored();
    this.wake();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retry) clearTimeout(this.retry);
    this.retry = null;
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}
