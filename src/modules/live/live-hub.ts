import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { Principal } from '../auth/principal.ts';
import { largestLiveEventId, readLiveEvents } from './live.repository.ts';
import { formatPosition, type LivePosition } from './position.ts';
import { PgWakeups } from './pg-wakeups.ts';

/** Rows read per query; a full batch is followed at once by the next. */
const BATCH = 200;
/** PostgreSQL: how soon to read again when rows wait behind a transaction still running. */
const HELD_RETRY_MS = 50;
/** What a browser waits before reconnecting after the stream ends. */
const RETRY_MS = 2000;

/** Who a stream is for, looked up again before every read: null ends the stream (signed out, revoked). */
export type Reauthenticate = () => Promise<Principal | null>;

/**
 * Every open live stream of this process, and what wakes them: on PostgreSQL a LISTEN
 * connection (pg-wakeups.ts), on SQLite a cheap look at the largest live_events id every
 * `pollMs` (rows another process wrote to the same file) plus `poke()` after this process's
 * own writes. A wake-up only makes each stream read again after its position: the table is
 * the truth, so nothing is lost if a wake-up is.
 */
export class LiveHub {
  private readonly streams = new Set<LiveStream>();
  private readonly wakeups: PgWakeups | null;
  private heartbeat: NodeJS.Timeout | null = null;
  private poll: NodeJS.Timeout | null = null;
  private lastId: number | null = null;
  private closed = false;

  constructor(
    readonly ctx: AppContext,
    readonly log: FastifyBaseLogger,
  ) {
    const config = ctx.database.pgClientConfig;
    this.wakeups = ctx.dialect === 'postgres' && config ? new PgWakeups(config, () => this.wakeAll(), log) : null;
  }

  /** Open streams held under `sessionKey`. */
  countFor(sessionKey: string): number {
    let count = 0;
    for (const stream of this.streams) if (stream.sessionKey === sessionKey) count++;
    return count;
  }

  /** Takes over `response` (headers not yet sent) and streams changes after `after` to it. */
  open(
    response: ServerResponse,
    options: {
      sessionKey: string;
      after: LivePosition;
      reauthenticate: Reauthenticate;
      headers: Record<string, string>;
    },
  ): void {
    // Gone while the route was getting ready: its 'close' has fired already and would never remove the stream.
    if (this.closed || !response.socket || response.socket.destroyed) return void response.end();
    const stream = new LiveStream(this, response, options.sessionKey, options.after, options.reauthenticate);
    this.streams.add(stream);
    response.on('close', () => this.remove(stream));
    this.startTimers();
    stream.start(options.headers);
  }

  /** This process committed a write: read now rather than at the next poll (SQLite). */
  poke(): void {
    if (this.streams.size && !this.wakeups) this.wakeAll();
  }

  /** Ends every stream (the server is draining) and stops listening. */
  async close(): Promise<void> {
    this.closed = true;
    for (const stream of this.streams) stream.end();
    this.stopTimers();
    await this.wakeups?.stop();
  }

  private remove(stream: LiveStream): void {
    stream.end();
    this.streams.delete(stream);
    if (!this.streams.size) this.stopTimers();
  }

  private wakeAll(): void {
    for (const stream of this.streams) stream.pull();
  }

  private startTimers(): void {
    if (!this.heartbeat) {
      // The beat also reads, so a stream whose session ended closes even when nothing changes.
      this.heartbeat = setInterval(() => {
        for (const stream of this.streams) stream.beat();
      }, this.ctx.config.live.heartbeatMs);
    }
    if (this.wakeups) this.wakeups.start();
    else if (!this.poll) this.poll = setInterval(() => void this.checkForeignWrites(), this.ctx.config.live.pollMs);
  }

  private stopTimers(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.poll) clearInterval(this.poll);
    this.heartbeat = this.poll = null;
    this.lastId = null;
  }

  /** SQLite: one primary-key lookup; a new largest id means someone committed live_events rows. */
  private async checkForeignWrites(): Promise<void> {
    try {
      const id = await largestLiveEventId(this.ctx.db);
      // The first look has nothing to compare with: read, in case rows came since a stream's first read.
      if (id !== this.lastId) this.wakeAll();
      this.lastId = id;
    } catch (error) {
      this.log.warn({ err: error }, 'live updates: polling for changes failed');
    }
  }
}

/** One open `text/event-stream` response: its position, and one read at a time. */
class LiveStream {
  private reading = false;
  private again = false;
  private ended = false;
  private held: NodeJS.Timeout | null = null;

  constructor(
    private readonly hub: LiveHub,
    private readonly response: ServerResponse,
    readonly sessionKey: string,
    private position: LivePosition,
    private readonly reauthenticate: Reauthenticate,
  ) {}

  start(headers: Record<string, string>): void {
    this.response.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // nginx would otherwise buffer the stream.
      'x-accel-buffering': 'no',
    });
    // `ready` carries the starting position, so a browser that reconnects before any change
    // still resumes from here (EventSource keeps the last id it saw, whatever the event name).
    this.response.write(`retry: ${RETRY_MS}\nevent: ready\nid: ${formatPosition(this.position)}\ndata: {}\n\n`);
    this.pull();
  }

  beat(): void {
    if (this.ended) return;
    this.response.write(': keep-alive\n\n');
    this.pull();
  }

  /** Reads and sends what is new; a call during a read makes that read go round once more. */
  pull(): void {
    if (this.ended) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    void this.drain().finally(() => {
      this.reading = false;
    });
  }

  private async drain(): Promise<void> {
    try {
      do {
        this.again = false;
        const principal = await this.reauthenticate();
        if (!principal) return this.end();
        const { events, held } = await readLiveEvents(
          this.hub.ctx.db,
          this.hub.ctx.dialect,
          principal,
          this.position,
          BATCH,
        );
        if (this.ended) return;
        let open = true;
        let previous = '';
        for (const event of events) {
          const data = JSON.stringify({
            kind: event.kind,
            project: event.project,
            key: event.key,
            action: event.action,
            version: event.version,
          });
          // One write of many rows (a new project's statuses, a reorder) says the same thing many times: once is enough.
          if (data !== previous)
            open = this.response.write(`event: change\nid: ${formatPosition(event.position)}\ndata: ${data}\n\n`);
          previous = data;
          this.position = event.position;
        }
        if (held && !this.held) {
          this.held = setTimeout(() => {
            this.held = null;
            this.pull();
          }, HELD_RETRY_MS);
        }
        // A slow reader: wait until its socket takes more before reading on.
        if (!open) await drained(this.response);
        if (events.length === BATCH) this.again = true;
      } while (this.again && !this.ended);
    } catch (error) {
      // The client reconnects with Last-Event-ID and misses nothing.
      this.hub.log.warn({ err: error }, 'live updates: reading changes failed; ending the stream');
      this.end();
    }
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.held) clearTimeout(this.held);
    this.response.end();
  }
}

/** Resolves when `response` takes more data, or is gone. */
function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done).off('close', done);
      resolve();
    };
    response.on('drain', done).on('close', done);
  });
}
