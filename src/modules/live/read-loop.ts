import type { FastifyBaseLogger } from 'fastify';
import { isConnectionError } from '../../db/connection-health.ts';

/** PostgreSQL: how soon to read again when rows wait behind a transaction still running. */
const HELD_RETRY_MS = 50;
/** Pauses before reading again while the database cannot be reached, growing with each failure. */
const READ_RETRY_MS = [250, 500, 1000, 2000, 5000];

/** What one read for every stream found. */
export interface ReadOutcome {
  /** Rows wait behind a transaction still running (PostgreSQL): read again shortly. */
  held: boolean;
  /** A full batch: more may follow at once. */
  full: boolean;
}

/** A hub of streams, as its read loop drives it. */
export interface LoopedHub {
  /** How many streams are open: the loop runs while there are any. */
  readonly size: number;
  /** Reads once for every stream and delivers what it may see. */
  readOnce(): Promise<ReadOutcome>;
  /** Sends every stream its heartbeat. */
  beat(): void;
  /** Ends every stream (a read failed for another reason than the database being away). */
  endAll(): void;
  /** The largest id of the table read, to notice rows another process committed. */
  largestId(): Promise<number | null>;
}

export interface ReadLoopOptions {
  heartbeatMs: number;
  pollMs: number;
  log: FastifyBaseLogger;
  /** What the log says when a read fails and the streams end, and when a poll fails. */
  messages: { readFailed: string; pollFailed: string };
  /** Something that calls `pull` when rows are committed (PostgreSQL LISTEN); then nothing polls. */
  wakeups?: { start(): void } | null;
}

/**
 * The read loop both stream hubs share (live-hub.ts, events/event-stream-hub.ts): one read at a
 * time for all streams, a call during a read making it go round once more; a full batch or
 * rows held behind a running transaction read again; a database that is away is read again
 * after a growing pause, the streams staying open; a heartbeat that also reads (so a stream
 * whose credential ended closes even when nothing happens); and, without wake-ups, a poll of
 * the largest id for rows other processes committed.
 */
export class ReadLoop {
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
    private readonly hub: LoopedHub,
    private readonly options: ReadLoopOptions,
  ) {}

  /** Reads and sends what is new; a call during a read makes that read go round once more. */
  pull(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    if (!this.hub.size) return;
    this.reading = true;
    void this.read().finally(() => {
      this.reading = false;
    });
  }

  /** A stream opened: beat, and poll unless something wakes the loop. */
  start(): void {
    this.heartbeat ??= setInterval(() => {
      this.hub.beat();
      this.pull();
    }, this.options.heartbeatMs);
    if (this.options.wakeups) this.options.wakeups.start();
    else this.poll ??= setInterval(() => void this.checkForeignWrites(), this.options.pollMs);
  }

  /** The last stream ended: no timers run until the next one opens. */
  stop(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.poll) clearInterval(this.poll);
    if (this.held) clearTimeout(this.held);
    if (this.retry) clearTimeout(this.retry);
    this.heartbeat = this.poll = this.held = this.retry = null;
    this.lastId = null;
  }

  /** The server is draining: a read under way does not go round again. */
  close(): void {
    this.closed = true;
    this.stop();
  }

  private async read(): Promise<void> {
    try {
      do {
        this.again = false;
        const { held, full } = await this.hub.readOnce();
        if (this.closed) break;
        if (held && !this.held) {
          this.held = setTimeout(() => {
            this.held = null;
            this.pull();
          }, HELD_RETRY_MS);
        }
        if (full) this.again = true;
      } while (this.again && this.hub.size && !this.closed);
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
      // Every stream ends: its client reconnects with Last-Event-ID and misses nothing.
      this.options.log.warn({ err: error }, this.options.messages.readFailed);
      this.hub.endAll();
    }
  }

  /** One primary-key lookup; a new largest id means someone committed rows. */
  private async checkForeignWrites(): Promise<void> {
    try {
      const id = await this.hub.largestId();
      // The first look has nothing to compare with: read, in case rows came since a stream's first read.
      if (id !== this.lastId) this.pull();
      this.lastId = id;
    } catch (error) {
      this.options.log.warn({ err: error }, this.options.messages.pollFailed);
    }
  }
}
