import http from 'node:http';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

export interface LiveClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Every event parsed so far, in order. */
  events: EventSourceMessage[];
  comments: string[];
  /** The body, when the answer was not a stream (an error). */
  body: string;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  /** The first event from index `from` on that matches, waiting for it up to `timeoutMs`. */
  waitFor(
    match: (event: EventSourceMessage) => boolean,
    options?: { from?: number; timeoutMs?: number },
  ): Promise<EventSourceMessage>;
  /** Waits until a comment line arrives. */
  waitForComment(text: string, timeoutMs?: number): Promise<void>;
  /** Drops the connection (as a network failure would). */
  close(): void;
}

/** Opens GET `path` on a real socket and parses the answer as Server-Sent Events. */
export function openLive(
  baseUrl: string,
  options: { path?: string; headers?: Record<string, string> } = {},
): Promise<LiveClient> {
  return new Promise((resolve, reject) => {
    const request = http.get(new URL(options.path ?? '/api/console/live/', baseUrl), {
      headers: { accept: 'text/event-stream', ...options.headers },
    });
    request.on('error', reject);
    request.on('response', (response) => {
      const events: EventSourceMessage[] = [];
      const comments: string[] = [];
      const listeners = new Set<() => void>();
      const changed = () => listeners.forEach((listener) => listener());
      const parser = createParser({
        onEvent: (event) => {
          events.push(event);
          changed();
        },
        onComment: (comment) => {
          comments.push(comment.trim());
          changed();
        },
      });
      let body = '';
      let isEnded = false;
      const ended = new Promise<void>((done) => {
        const finish = () => {
          isEnded = true;
          changed();
          done();
        };
        response.on('end', finish);
        response.on('close', finish);
      });
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
        parser.feed(chunk);
      });
      response.on('error', () => undefined);

      const until = <T>(check: () => T | undefined, timeoutMs: number, what: string) =>
        new Promise<T>((found, fail) => {
          const listener = () => {
            const result = check();
            if (result !== undefined) {
              cleanup();
              found(result);
            } else if (isEnded) {
              cleanup();
              fail(new Error(`stream ended before ${what}; events: ${JSON.stringify(events)}`));
            }
          };
          const timer = setTimeout(() => {
            cleanup();
            fail(new Error(`timed out waiting for ${what}; events: ${JSON.stringify(events)}`));
          }, timeoutMs);
          const cleanup = () => {
            clearTimeout(timer);
            listeners.delete(listener);
          };
          listeners.add(listener);
          listener();
        });

      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        events,
        comments,
        get body() {
          return body;
        },
        ended,
        waitFor: (match, { from = 0, timeoutMs = 10_000 } = {}) =>
          until(() => events.slice(from).find(match), timeoutMs, 'a matching event'),
        waitForComment: async (text, timeoutMs = 10_000) => {
          await until(() => (comments.includes(text) ? true : undefined), timeoutMs, `comment "${text}"`);
        },
        close: () => request.destroy(),
      });
    });
  });
}

/** The `data` of a `change` event. */
export function changeOf(event: EventSourceMessage): {
  kind: string;
  project: string;
  key: string | null;
  action: string;
  version: number | null;
} {
  return JSON.parse(event.data);
}

export const isChange = (event: EventSourceMessage): boolean => event.event === 'change';
