import type { ServerResponse } from 'node:http';
import type { LiveEvent } from './live.repository.ts';
import { formatPosition, type LivePosition } from './position.ts';

/** What a browser waits before reconnecting after the stream ends. */
const RETRY_MS = 2000;
/**
 * Bytes a stream may have waiting in its socket's buffer. A reader slower than that is ended:
 * it reconnects with Last-Event-ID and misses nothing, and the hub never waits for it.
 */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** One open `text/event-stream` response of a signed-in person, and where it is in live_events. */
export class LiveStream {
  private ended = false;

  constructor(
    private readonly response: ServerResponse,
    readonly sessionId: number,
    readonly userId: number,
    readonly organizationId: number,
    /** The row last sent or passed over. */
    public position: LivePosition,
    private readonly onEnd: (stream: LiveStream) => void,
  ) {}

  get isEnded(): boolean {
    return this.ended;
  }

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
  }

  beat(): void {
    this.write(': keep-alive\n\n');
  }

  /**
   * Sends the changes of one read that come after this stream's position (`visible` says
   * which of them it may see) and moves its position past all of them. One write of many
   * rows says the same thing many times (a new project's statuses, a reorder): once is enough.
   */
  deliver(events: LiveEvent[], visible: (event: LiveEvent) => boolean): void {
    let previous = '';
    for (const event of events) {
      if (this.ended) return;
      if (!isAfter(event.position, this.position)) continue;
      this.position = event.position;
      if (!visible(event)) continue;
      const data = JSON.stringify({
        kind: event.kind,
        project: event.project,
        key: event.key,
        action: event.action,
        version: event.version,
      });
      if (data !== previous) this.write(`event: change\nid: ${formatPosition(event.position)}\ndata: ${data}\n\n`);
      previous = data;
    }
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.response.end();
    this.onEnd(this);
  }

  private write(text: string): void {
    if (this.ended) return;
    this.response.write(text);
    if (this.response.writableLength > MAX_BUFFERED_BYTES) this.end();
  }
}

export function isAfter(a: LivePosition, b: LivePosition): boolean {
  return a.tx > b.tx || (a.tx === b.tx && a.id > b.id);
}
