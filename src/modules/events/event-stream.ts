import type { ServerResponse } from 'node:http';
import type { Principal } from '../../identity/principal.ts';
import type { Scope } from '../../identity/scopes.ts';
import type { EventPosition, StreamedEvent } from './events-stream.repository.ts';

/** What a client waits before reconnecting after the stream ends. */
const RETRY_MS = 2000;
/** Bytes a stream may have waiting in its socket; a slower reader is ended, reconnects with Last-Event-ID and misses nothing. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/**
 * The read scope an event type needs, by its first word; `own`: none, the event is its
 * recipient's (a notification, like GET /me/notifications/); null: no token receives it on the stream.
 */
const SCOPE_OF: Record<string, Scope | 'own' | null> = {
  task: 'tasks:read',
  comment: 'tasks:read',
  attachment: 'tasks:read',
  sprint: 'tasks:read',
  project: 'projects:read',
  membership: 'projects:read',
  standup: 'standups:read',
  notification: 'own',
  webhook: null,
};

export function scopeOfEventType(type: string): Scope | 'own' | null {
  return SCOPE_OF[type.slice(0, type.indexOf('.'))] ?? null;
}

export interface StreamFilter {
  /** Only these types; null: every type. */
  types: ReadonlySet<string> | null;
  /** Only events of this project; null: every project. */
  projectId: number | null;
}

/** One open `text/event-stream` response of a token, and where it is in the outbox's commit order. */
export class EventStream {
  private ended = false;

  constructor(
    private readonly response: ServerResponse,
    /** The token's hash: the stream authenticates it again when access may have changed. */
    readonly tokenHash: string,
    /** The token as of the last check, and the projects it sees. */
    public principal: Principal,
    public visible: ReadonlySet<number>,
    private readonly filter: StreamFilter,
    /** The event last sent or passed over. */
    public position: EventPosition,
    private readonly onEnd: (stream: EventStream) => void,
  ) {}

  start(headers: Record<string, string>, readyId: string | null): void {
    this.response.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // nginx would otherwise buffer the stream.
      'x-accel-buffering': 'no',
    });
    // `ready` carries the id of the event the stream starts after, so a client that reconnects
    // before any event still resumes from here (an SSE client keeps the last id it saw).
    const id = readyId === null ? '' : `id: ${readyId}\n`;
    this.response.write(`retry: ${RETRY_MS}\nevent: ready\n${id}data: {}\n\n`);
  }

  beat(): void {
    this.write(': keep-alive\n\n');
  }

  /** Sends the events of one read that come after this stream's position and that it may see; moves past all of them. */
  deliver(events: StreamedEvent[]): void {
    for (const event of events) {
      if (this.ended) return;
      if (!isAfter(event.position, this.position)) continue;
      this.position = event.position;
      if (this.sees(event)) this.write(`event: ${event.type}\nid: ${event.eventId}\ndata: ${event.envelope}\n\n`);
    }
  }

  /**
   * Its organization's, of a type its scopes read and its filter keeps, for its account if for one account only, of
   * projects it sees (both, for a link across projects).
   */
  private sees(event: StreamedEvent): boolean {
    const { principal, filter, visible } = this;
    if (event.organizationId !== principal.organizationId) return false;
    const scope = scopeOfEventType(event.type);
    if (scope === null || (scope !== 'own' && !principal.scopes.includes(scope))) return false;
    if (event.recipientId !== null && event.recipientId !== principal.userId) return false;
    if (filter.types && !filter.types.has(event.type)) return false;
    if (filter.projectId !== null && event.projectId !== filter.projectId) return false;
    // A notification about no task is its recipient's whatever projects the token is restricted to, as in the inbox.
    if (event.projectId === null && event.recipientId !== null) return true;
    // An event of no project (a standup submitted) is the workspace's: not for a token restricted to projects.
    if (event.projectId === null) return principal.projectRestriction === null;
    return visible.has(event.projectId) && (event.relatedProjectId === null || visible.has(event.relatedProjectId));
  }

  get isEnded(): boolean {
    return this.ended;
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

export function isAfter(a: EventPosition, b: EventPosition): boolean {
  return a.tx > b.tx || (a.tx === b.tx && a.id > b.id);
}
