import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { isConnectionError } from '../../db/connection-health.ts';
import { ApiError } from '../../http/errors.ts';
import { authEpoch } from '../../identity/auth.repository.ts';
import { principalOfTokenHash } from '../../identity/auth.service.ts';
import type { Principal } from '../../identity/principal.ts';
import { loadVisibleProjects } from '../../policy/visibility.repository.ts';
import { EventStream, isAfter, type StreamFilter } from './event-stream.ts';
import { type EventPosition, largestEventId, readEventsAfter } from './events-stream.repository.ts';

/** Events read per query; a full batch is followed at once by the next. */
const BATCH = 200;
/** PostgreSQL: how soon to read again when events wait behind a transaction still running. */
const HELD_RETRY_MS = 50;
/** Pauses before reading again while the database cannot be reached, growing with each failure. */
const READ_RETRY_MS = [250, 500, 1000, 2000, 5000];

/**
 * Every open event stream of this process (docs/api/events-stream.md). A look at the largest
 * outbox id every `pollMs` (events another process committed) and `poke()` after this
 * process's own writes wake it; it then reads once for all its streams, from the earliest
 * stream's position, and each stream keeps what its token may see. When the auth epoch moved
 * (a token revoked, a membership or role changed: src/identity/auth-cache.ts) every stream's
 * token is authenticated again first, and a stream whose token no longer works ends. The
 * outbox is the truth, so nothing is lost if a wake-up is.
 */
export class EventStreamHub {
  private readonly streams = new Set<EventStream>();
  private heartbeat: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private held: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private failedReads = 0;
  private lastId: number | null = null;
  private epoch: number | null = null;
  private reading = false;
  private again = false;
  private closed = false;

  constructor(
    readonly ctx: AppContext,
    readonly log: FastifyBaseLogger,
  ) {}

  /**
   * 429 unless the account may open one more stream: the caps of live streams
   * (LIVE_MAX_STREAMS_PER_PERSON per account, LIVE_MAX_STREAMS_PER_ORGANIZATION per
   * organization, in this process), counted for event streams on their own.
   */
  admit(principal: Principal): void {
    const { maxStreamsPerPerson, maxStreamsPerOrganization } = this.ctx.config.live;
    let account = 0;
    let organization = 0;
    for (const stream of this.streams) {
      if (stream.principal.userId === principal.userId) account++;
      if (stream.principal.organizationId === principal.organizationId) organization++;
    }
    if (account >= maxStreamsPerPerson)
      throw new ApiError(
        'RATE_LIMITED',
        `At most ${maxStreamsPerPerson} event streams may be open at once for one account; close one first.`,
      );
    if (organization >= maxStreamsPerOrganization)
      throw new ApiError(
        'RATE_LIMITED',
        `At most ${maxStreamsPerOrganization} event streams may be open at once for one organization.`,
      );
  }

  /** Takes over `response` (headers not yet sent) and streams the events after `after` to it. */
  async open(
    response: ServerResponse,
    stream: { tokenHash: string; principal: Principal; filter: StreamFilter; after: EventPosition },
    headers: Record<string, string>,
    readyId: string | null,
  ): Promise<void> {
    if (this.closed || !response.socket || response.socket.destroyed) return void response.end();
    const visible = new Set((await loadVisibleProjects(this.ctx.db, stream.principal)).byId.keys());
    const opened = new EventStream(
      response,
      stream.tokenHash,
      stream.principal,
      visible,
      stream.filter,
      stream.after,
      (s) => this.remove(s),
    );
    this.streams.add(opened);
    response.on('close', () => opened.end());
    if (response.destroyed) return opened.end();
    this.startTimers();
    opened.start(headers, readyId);
    this.pull();
  }

  /** This process committed a write: read now rather than at the next poll. */
  poke(): void {
    if (this.streams.size) this.pull();
  }

  /** Ends every stream (the server is draining). */
  close(): void {
    this.closed = true;
    for (const stream of [...this.streams]) stream.end();
    this.stopTimers();
  }

  private remove(stream: EventStream): void {
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
        // The database is away: the streams stay open and read again from where each one is.
        const delay = READ_RETRY_MS[Math.min(this.failedReads++, READ_RETRY_MS.length - 1)]!;
        this.retry ??= setTimeout(() => {
          this.retry = null;
          this.pull();
        }, delay);
        return;
      }
      // Every stream ends: its client reconnects with Last-Event-ID and misses nothing.
      this.log.warn({ err: error }, 'event streams: reading events failed; ending the streams');
      for (const stream of [...this.streams]) stream.end();
    }
  }

  /** Streams whose token expired end; when the auth epoch moved, every token is authenticated again. */
  private async checkAccess(): Promise<void> {
    const now = this.ctx.clock.nowIso();
    for (const stream of [...this.streams])
      if (stream.principal.expiresAt !== null && stream.principal.expiresAt <= now) stream.end();
    const [row] = await authEpoch(this.ctx.db).execute();
    const epoch = row ? Number(row.value) : null;
    if (epoch !== null && epoch === this.epoch) return;
    for (const stream of [...this.streams]) {
      let principal: Principal;
      try {
        principal = await principalOfTokenHash(this.ctx.db, this.ctx.clock, stream.tokenHash);
      } catch (error) {
        if (error instanceof ApiError) {
          stream.end();
          continue;
        }
        throw error;
      }
      stream.principal = principal;
      stream.visible = new Set((await loadVisibleProjects(this.ctx.db, principal)).byId.keys());
    }
    this.epoch = epoch;
  }

  private async readOnce(): Promise<void> {
    await this.checkAccess();
    const streams = [...this.streams];
    if (!streams.length) return;
    const from = streams.map((s) => s.position).reduce((earliest, p) => (isAfter(earliest, p) ? p : earliest));
    const { events, held } = await readEventsAfter(this.ctx.db, this.ctx.dialect, from, BATCH);
    if (this.closed) return;
    for (const stream of streams) stream.deliver(events);
    if (held && !this.held) {
      this.held = setTimeout(() => {
        this.held = null;
        this.pull();
      }, HELD_RETRY_MS);
    }
    if (events.length === BATCH) this.again = true;
  }

  private startTimers(): void {
    // The beat also reads, so a stream whose token was revoked ends even when nothing happens.
    this.heartbeat ??= setInterval(() => {
      for (const stream of this.streams) stream.beat();
      this.pull();
    }, this.ctx.config.live.heartbeatMs);
    this.poll ??= setInterval(() => void this.checkForeignWrites(), this.ctx.config.live.pollMs);
  }

  private stopTimers(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.poll) clearInterval(this.poll);
    if (this.held) clearTimeout(this.held);
    if (this.retry) clearTimeout(this.retry);
    this.heartbeat = this.poll = this.held = this.retry = null;
    this.lastId = null;
    this.epoch = null;
  }

  /** One primary-key lookup; a new largest id means someone committed events. */
  private async checkForeignWrites(): Promise<void> {
    try {
      const id = await largestEventId(this.ctx.db);
      if (id !== this.lastId) this.pull();
      this.lastId = id;
    } catch (error) {
      this.log.warn({ err: error }, 'event streams: polling for events failed');
    }
  }
}
