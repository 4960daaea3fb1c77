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
import { type LoopedHub, type ReadOutcome, ReadLoop } from './read-loop.ts';

/** Rows read per query; a full batch is followed at once by the next. */
const BATCH = 200;

/**
 * Every open live stream of this process, and what wakes them: on PostgreSQL a LISTEN
 * connection (pg-wakeups.ts), on SQLite a cheap look at the largest live_events id every
 * `pollMs` (rows another process wrote to the same file) plus `poke()` after this process's
 * own writes. A wake-up makes the hub read once for all its streams: the sessions that may
 * still stream, what their people see (when that changed), and the rows after the earliest
 * stream's position, which each stream then filters for itself. So a write costs the same few
 * queries however many streams are open. The table is the truth, so nothing is lost if a
 * wake-up is. The reading itself is the loop shared with event streams (read-loop.ts).
 */
export class LiveHub implements LoopedHub {
  private readonly streams = new Set<LiveStream>();
  private readonly audience: LiveAudience;
  private readonly wakeups: PgWakeups | null;
  private readonly loop: ReadLoop;
  private closed = false;

  constructor(
    readonly ctx: AppContext,
    readonly log: FastifyBaseLogger,
  ) {
    this.audience = new LiveAudience(ctx);
    const config = ctx.database.pgClientConfig;
    this.wakeups = ctx.dialect === 'postgres' && config ? new PgWakeups(config, () => this.loop.pull(), log) : null;
    this.loop = new ReadLoop(this, {
      heartbeatMs: ctx.config.live.heartbeatMs,
      pollMs: ctx.config.live.pollMs,
      log,
      messages: {
        readFailed: 'live updates: reading changes failed; ending the streams',
        pollFailed: 'live updates: polling for changes failed',
      },
      wakeups: this.wakeups,
    });
  }

  get size(): number {
    return this.streams.size;
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
    this.loop.start();
    stream.start(headers);
    this.loop.pull();
  }

  /** This process committed a write: read now rather than at the next poll (SQLite). */
  poke(): void {
    if (this.streams.size && !this.wakeups) this.loop.pull();
  }

  /** Ends every stream (the server is draining) and stops listening. */
  async close(): Promise<void> {
    this.closed = true;
    this.loop.close();
    for (const stream of [...this.streams]) stream.end();
    await this.wakeups?.stop();
  }

  beat(): void {
    for (const stream of this.streams) stream.beat();
  }

  endAll(): void {
    for (const stream of [...this.streams]) stream.end();
  }

  /** SQLite: one primary-key lookup on live_events (PostgreSQL is woken by LISTEN instead). */
  largestId(): Promise<number | null> {
    return largestLiveEventId(this.ctx.db);
  }

  private remove(stream: LiveStream): void {
    this.streams.delete(stream);
    if (!this.streams.size) this.loop.stop();
  }

  async readOnce(): Promise<ReadOutcome> {
    // Sessions that ended (sign-out, revocation, deactivation, expiry) end their streams first.
    const checked = new Set([...this.streams].map((s) => s.sessionId));
    const open = await this.audience.openSessions([...checked]);
    // A stream opened while the sessions were read was not checked yet: the next read checks it.
    for (const stream of [...this.streams])
      if (checked.has(stream.sessionId) && !open.has(stream.sessionId)) stream.end();
    const streams = [...this.streams];
    if (!streams.length) return { held: false, full: false };
    const projects = await this.audience.projectsOf([...new Set(streams.map((s) => s.userId))]);
    const from = streams.map((s) => s.position).reduce((earliest, p) => (isAfter(earliest, p) ? p : earliest));
    const { events, held } = await readLiveEvents(this.ctx.db, this.ctx.dialect, from, BATCH);
    if (this.closed) return { held: false, full: false };
    for (const stream of streams) {
      const visible = projects.get(stream.userId);
      stream.deliver(events, (event) =>
        event.recipientId === null ? visible?.has(event.projectId) === true : event.recipientId === stream.userId,
      );
    }
    return { held, full: events.length === BATCH };
  }
}
