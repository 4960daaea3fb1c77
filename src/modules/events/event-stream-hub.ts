import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import { ApiError } from '../../http/errors.ts';
import { authEpoch } from '../../identity/auth.repository.ts';
import { principalOfTokenHash } from '../../identity/auth.service.ts';
import type { Principal } from '../../identity/principal.ts';
import { type LoopedHub, type ReadOutcome, ReadLoop } from '../live/read-loop.ts';
import { loadVisibleProjects } from '../../policy/visibility.repository.ts';
import { EventStream, isAfter, type StreamFilter } from './event-stream.ts';
import { type EventPosition, largestEventId, readEventsAfter } from './events-stream.repository.ts';

/** Events read per query; a full batch is followed at once by the next. */
const BATCH = 200;

/**
 * Every open event stream of this process (docs/api/events-stream.md). A look at the largest
 * outbox id every `pollMs` (events another process committed) and `poke()` after this
 * process's own writes wake it; it then reads once for all its streams, from the earliest
 * stream's position, and each stream keeps what its token may see. When the auth epoch moved
 * (a token revoked, a membership or role changed: src/identity/auth-cache.ts) every stream's
 * token is authenticated again first, and a stream whose token no longer works ends. The
 * outbox is the truth, so nothing is lost if a wake-up is. The reading itself is the loop
 * shared with live streams (live/read-loop.ts).
 */
export class EventStreamHub implements LoopedHub {
  private readonly streams = new Set<EventStream>();
  private readonly loop: ReadLoop;
  private epoch: number | null = null;
  private closed = false;

  constructor(
    readonly ctx: AppContext,
    readonly log: FastifyBaseLogger,
  ) {
    this.loop = new ReadLoop(this, {
      heartbeatMs: ctx.config.live.heartbeatMs,
      pollMs: ctx.config.live.pollMs,
      log,
      messages: {
        readFailed: 'event streams: reading events failed; ending the streams',
        pollFailed: 'event streams: polling for events failed',
      },
    });
  }

  get size(): number {
    return this.streams.size;
  }

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
    this.loop.start();
    opened.start(headers, readyId);
    this.loop.pull();
  }

  /** This process committed a write: read now rather than at the next poll. */
  poke(): void {
    if (this.streams.size) this.loop.pull();
  }

  /** Ends every stream (the server is draining). */
  close(): void {
    this.closed = true;
    this.loop.close();
    for (const stream of [...this.streams]) stream.end();
  }

  beat(): void {
    for (const stream of this.streams) stream.beat();
  }

  endAll(): void {
    for (const stream of [...this.streams]) stream.end();
  }

  largestId(): Promise<number | null> {
    return largestEventId(this.ctx.db);
  }

  private remove(stream: EventStream): void {
    this.streams.delete(stream);
    if (this.streams.size) return;
    this.loop.stop();
    this.epoch = null;
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

  async readOnce(): Promise<ReadOutcome> {
    await this.checkAccess();
    const streams = [...this.streams];
    if (!streams.length) return { held: false, full: false };
    const from = streams.map((s) => s.position).reduce((earliest, p) => (isAfter(earliest, p) ? p : earliest));
    const { events, held } = await readEventsAfter(this.ctx.db, this.ctx.dialect, from, BATCH);
    if (this.closed) return { held: false, full: false };
    for (const stream of streams) stream.deliver(events);
    return { held, full: events.length === BATCH };
  }
}
