import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import type { Principal } from '../../identity/principal.ts';
import { LiveAudience } from './live-audience.ts';
import { LiveStream, isAfter } from './live-stream.ts';
import { largestLiveEventId, readLiveEvents } from './live.repository.ts';
import type { LivePosition } from './position.ts';
import { PgWakeups } from './pg-wakeups.ts';
import { isConnectionError } from '../../db/connection-health.ts';

/** Rows read per query; a full batch is followed at once by the next. */
const BATCH = 200;
/** PostgreSQL: how soon to read again when rows wait behind a transaction still running. */
const HELD_RETRY_MS = 50;
/** Pauses before reading again while the database cannot be reached, growing with each failure. */
const READ_RETRY_MS = [250, 500, 1000, 2000, 5000];

/**
 * Every open live stream of this process, and what wakes them: on PostgreSQL a LISTEN
 * connection (pg-wakeups.ts), on SQLite a cheap look at the largest live_events id every
 * `pollMs` (rows another process wrote to the same file) plus `poke()` after this process's
 * own writes. A wake-up makes the hub read once for all its streams: the sessions that may
 * still stream, what their people see (when that changed), and the rows after the earliest
 * stream's position, which each stream then filters for itself. So a write costs the same few
 * queries however many streams are open. The table is the truth, so nothing is lost if a
 * wake-up is.
 */
export class LiveHub {
  private readonly streams = new Set<LiveStream>();
  private readonly audience: LiveAudience;
  private readonly wakeups: PgWakeups | null;
  private heartbeat: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private held: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private failedReads = 0;
  private lastId: number | null = null;
  private reading = false;
  private again = false;
  private closed = false;

  constructor(
    readonly ctx: AppContext,
    readonly log: FastifyBaseLogger,
  ) {
    this.audience = new LiveAudience(ctx);
    const config = ctx.database.pgClientConfig;
    this.wakeups = ctx.dialect === 'postgres' && config ? new PgWakeups(config, () => this.pull(), log) : null;
  }

  /**
   * 429 unless the caller may open one more stream: at most `maxStreamsPerPerson` per person
   * (however many sessions they hold) and `maxStreamsPerOrganization` per organization, in
   * this process.
   */
  admit(principal: Principal): void {
    const { maxStreamsPerPerson, maxStreamsPerOrganization } = this.ctx.config.live;
    let person = 0;
    let organization = 0;
    for (const stream of this.streams) {
      if (stream.userId === principal.userId) person++;
      if (stream.organizationId === principal.organizationId) organization++;
    }
    if (person >= maxStreamsPerPerson)
      throw new ApiError(
        'RATE_LIMITED',
        `At most ${maxStreamsPerPerson} live streams may be open at once for one person; close one first.`,
      );
    if (organization >= maxStreamsPerOrganization)
      throw new ApiError(
        'RATE_LIMITED',
        `At most ${maxStreamsPerOrganization} live streams may be open at once for one organization.`,
      );
  }

  /** Takes over `response` (headers not yet sent) and streams changes after `after` to it. */
  open(response: ServerResponse, principal: Principal, after: LivePosition, headers: Record<string, string>): void {
    // Gone while the route was getting ready: its 'close' has fired already and would never remove the stream.
    if (this.closed || !response.socket || response.socket.destroyed) return void response.end();
    const stream = new LiveStream(
      response,
      principal.sessionId!,
      principal.userId,
      principal.organizationId,
      after,
      (s) => this.remove(s),
    );
    this.streams.add(stream);
    response.on('close', () => stream.end());
    this.startTimers();
    stream.start(headers);
    this.pull();
  }

  /** This process committed a write: read now rather than at the next poll (SQLite). */
  poke(): void {
    if (this.streams.size && !this.wakeups) this.pull();
  }

  /** Ends every stream (the server is draining) and stops listening. */
  async close(): Promise<void> {
    this.closed = true;
    for (const stream of [...this.streams]) stream.end();
    this.stopTimers();
    await this.wakeups?.stop();
  }

  private remove(stream: LiveStream): void {
    this.streams.delete(stream);
    if (!this.streams.size) this.stopTimers();
  }

  /** Reads and sends what is new; a call during a read makes that read go round once more. */
  private pull(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    if (!this.streams.size) return;
    this.reading = true;
    void this.read().finally(() => {
      this.reading = false;
    });
  }

  private async read(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.readOnce();
      } while (this.again && this.streams.size && !this.closed);
      this.failedReads = 0;
    } catch (error) {
      if (isConnectionError(error)) {
        // The database is away (the pool logs it once): the streams stay open and read again,
        // from where each one is, so they miss nothing however long the outage lasts.
        const delay = READ_RETRY_MS[Math.min(this.failedReads++, READ_RETRY_MS.length - 1)]!;
        this.retry ??= setTimeout(() => {
          this.retry = null;
          this.pull();
        }, delay);
        return;
      }
      // Every stream is ended: its browser reconnects with Last-Event-ID and misses nothing.
      this.log.warn({ err: error }, 'live updates: reading changes failed; ending the streams');
      for (const stream of [...this.streams]) stream.end();
    }
  }

  private async readOnce(): Promise<void> {
    // Sessions that ended (sign-out, revocation, deactivation, expiry) end their streams first.
    const checked = new Set([...this.streams].map((s) => s.sessionId));
    const open = await this.audience.openSessions([...checked]);
    // A stream opened while the sessions were read was not checked yet: the next read checks it.
    for (const stream of [...this.streams])
      if (checked.has(stream.sessionId) && !open.has(stream.sessionId)) stream.end();
    const streams = [...this.streams];
    if (!streams.length) return;
    const projects = await this.audience.projectsOf([...new Set(streams.map((s) => s.userId))]);
    const from = streams.map((s) => s.position).reduce((earliest, p) => (isAfter(earliest, p) ? p : earliest));
    const { events, held } = await readLiveEvents(this.ctx.db, this.ctx.dialect, from, BATCH);
    if (this.closed) return;
    for (const stream of streams) {
      const visible = projects.get(stream.userId);
      stream.deliver(events, (event) =>
        event.recipientId === null ? visible?.has(event.projectId) === true : event.recipientId === stream.userId,
      );
    }
    if (held && !this.held) {
      this.held = setTimeout(() => {
        this.held = null;
        this.pull();
      }, HELD_RETRY_MS);
    }
    if (events.length === BATCH) this.again = true;
  }

  private startTimers(): void {
    if (!this.heartbeat) {
      // The beat also reads, so a stream whose session ended closes even when nothing changes.
      this.heartbeat = setInterval(() => {
        for (const stream of this.streams) stream.beat();
        this.pull();
      }, this.ctx.config.live.heartbeatMs);
    }
    if (this.wakeups) this.wakeups.start();
    else if (!this.poll) this.poll = setInterval(() => void this.checkForeignWrites(), this.ctx.config.live.pollMs);
  }

  private stopTimers(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.poll) clearInterval(this.poll);
    if (this.held) clearTimeout(this.held);
    if (this.retry) clearTimeout(this.retry);
    this.heartbeat = this.poll = this.held = this.retry = null;
    this.lastId = null;
  }

  /** SQLite: one primary-key lookup; a new largest id means someone committed live_events rows. */
  private async checkForeignWrites(): Promise<void> {
    try {
      const id = await largestLiveEventId(this.ctx.db);
      // The first look has nothing to compare with: read, in case rows came since a stream's first read.
      if (id !== this.lastId) this.pull();
      this.lastId = id;
    } catch (error) {
      this.log.warn({ err: error }, 'live updates: polling for changes failed');
    }
  }
}
