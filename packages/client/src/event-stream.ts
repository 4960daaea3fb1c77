/**
 * `tt.events.stream()`: the service's event stream (`GET /api/v1/events/stream/`, Server-Sent
 * Events) as a typed async iterator that reconnects by itself, resuming after the last event it
 * yielded, so a dropped connection loses nothing and repeats nothing.
 */
import { NetworkError, toApiError } from './errors.js';
import type { WebhookEvent, WebhookEventType } from './events.js';

export interface EventStreamOptions {
  /** Only these event types (all the token may see when absent). */
  types?: readonly WebhookEventType[];
  /** Only events of this project (its key). */
  project?: string;
  /** Resume after this event id: the `id` of the last event you handled. Absent: from now. */
  after?: string;
  /** Ends the iteration (it then returns, without an error). */
  signal?: AbortSignal;
  /** Milliseconds to wait before reconnecting when the server did not say (default 2000). */
  reconnectMs?: number;
}

export interface StreamConnection {
  baseUrl: string;
  headers: Record<string, string>;
  fetch: (request: Request) => Promise<Response>;
}

interface Message {
  event: string;
  id: string | undefined;
  data: string;
}

/** Splits an SSE body into messages (the WHATWG rules: fields, comments, CRLF or LF, multi-line data). */
async function* messages(
  body: ReadableStream<Uint8Array>,
  onRetry: (ms: number) => void,
): AsyncGenerator<Message, void, undefined> {
  const decoder = new TextDecoder();
  let buffer = '';
  let event = '';
  let id: string | undefined;
  let data: string[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      let end: number;
      while ((end = buffer.search(/\r\n|\r|\n/)) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer.startsWith('\r\n', end) ? 2 : 1));
        if (line === '') {
          if (data.length) yield { event: event || 'message', id, data: data.join('\n') };
          event = '';
          id = undefined;
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        if (field === 'event') event = value;
        else if (field === 'data') data.push(value);
        else if (field === 'id') id = value;
        else if (field === 'retry' && /^\d+$/.test(value)) onRetry(Number(value));
      }
    }
  } finally {
    reader.releaseLock();
    await body.cancel().catch(() => undefined);
  }
}

const pause = (ms: number, signal: AbortSignal | undefined) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });

/**
 * Every event the token may see as it commits, in commit order. A dropped connection, a network
 * error or a 5xx (a restart) is followed by a reconnection with `Last-Event-ID`; any other error
 * answer throws its `ApiError` (410 `EVENTS_EXPIRED` when the resume point is older than the
 * stream's catch-up window: catch up from the API and start again without `after`).
 */
export async function* streamEvents(
  connection: StreamConnection,
  options: EventStreamOptions = {},
): AsyncGenerator<WebhookEvent, void, undefined> {
  const { signal } = options;
  let lastId = options.after;
  let retryMs = options.reconnectMs ?? 2000;
  while (!signal?.aborted) {
    const url = new URL('/api/v1/events/stream/', connection.baseUrl);
    if (options.types) url.searchParams.set('types', options.types.join(','));
    if (options.project) url.searchParams.set('project', options.project);
    const headers: Record<string, string> = { ...connection.headers, accept: 'text/event-stream' };
    if (lastId !== undefined) headers['last-event-id'] = lastId;
    let response: Response;
    try {
      response = await connection.fetch(new Request(url, { headers, signal }));
    } catch (error) {
      if (signal?.aborted) return;
      if (!(error instanceof TypeError || error instanceof NetworkError)) throw error;
      await pause(retryMs, signal);
      continue;
    }
    if (!response.ok || !response.body) {
      const body = await response.json().catch(() => undefined);
      if (response.status < 500) throw toApiError(response, body);
      await pause(retryMs, signal);
      continue;
    }
    try {
      for await (const message of messages(response.body, (ms) => (retryMs = ms))) {
        if (message.id !== undefined) lastId = message.id;
        if (message.event === 'ready') continue;
        yield JSON.parse(message.data) as WebhookEvent;
      }
    } catch (error) {
      if (signal?.aborted) return;
      // The body broke off (a dropped connection): reconnect after the last event yielded.
      if (!(error instanceof TypeError || (error as Error).name === 'AbortError')) throw error;
    }
    await pause(retryMs, signal);
  }
}
