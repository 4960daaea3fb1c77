import http from 'node:http';
import pg from 'pg';
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

/**
 * PostgreSQL: a write transaction left open in another database of the same server (`postgres`),
 * which holds back the oldest transaction still running that every snapshot of the server
 * reports. `xid` is its transaction id; `isOpen()` says whether it still runs.
 */
export async function openWriteElsewhere(
  config: pg.ClientConfig,
): Promise<{ xid: number; isOpen(): Promise<boolean>; end(): Promise<void> }> {
  const url = new URL(config.connectionString!);
  if (url.pathname === '/postgres') throw new Error('openWriteElsewhere: the test database is `postgres` itself');
  url.pathname = '/postgres';
  url.search = '';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  await client.query('BEGIN');
  await client.query('CREATE TEMP TABLE long_write (n integer)');
  await client.query('INSERT INTO long_write VALUES (1)');
  const { rows } = await client.query<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid');
  const xid = Number(rows[0]!.xid);
  return {
    xid,
    isOpen: async () =>
      (await client.query<{ xid: string }>('SELECT pg_current_xact_id_if_assigned()::text AS xid')).rows[0]!.xid ===
      String(xid),
    end: async () => {
      await client.query('ROLLBACK');
      await client.end();
    },
  };
}
