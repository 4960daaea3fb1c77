/**
 * An example tasktracker webhook receiver, the shape every consumer should have (docs/api/webhooks.md, "Receiving webhooks"):
 *
 * 1. read the raw request bytes (never a parsed and re-serialized body),
 * 2. verify X-Service-Signature over "{X-Service-Timestamp}.{raw body}" in constant time and
 *    reject timestamps more than 300 s from the local clock,
 * 3. store the event durably, deduplicated on the envelope `id` (retries and replays repeat it),
 * 4. only then answer 2xx, and do the real work later from the stored copy.
 *
 * Run it (behind an HTTPS reverse proxy, or with TLS_CERT_FILE and TLS_KEY_FILE to serve HTTPS
 * itself; tasktracker only calls https:// URLs):
 *
 *   WEBHOOK_SECRET=whsec_... PORT=9000 EVENTS_DB=./events.db node --import tsx examples/webhook-receiver.ts
 */
import fs from 'node:fs';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import { pathToFileURL } from 'node:url';
import { getVerifiedWebhook, webhookMiddleware } from '@tasktracker/webhooks';
import Database from 'better-sqlite3';

export interface ReceiverOptions {
  /** The endpoint's signing secret, shown once when the endpoint was created. */
  secret: string;
  /** SQLite file holding received events. */
  dbPath: string;
  /** Local clock in Unix seconds (tests inject one). */
  nowSeconds?: () => number;
}

export interface WebhookReceiver {
  handle(request: IncomingMessage, response: ServerResponse): void;
  db: Database.Database;
  close(): void;
}

function answer(response: ServerResponse, status: number, body: Record<string, unknown>): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

export function createWebhookReceiver(options: ReceiverOptions): WebhookReceiver {
  const db = new Database(options.dbPath);
  db.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before the 2xx goes out, so an acknowledged event survives a crash.
  db.pragma('synchronous = FULL');
  db.exec(`CREATE TABLE IF NOT EXISTS events (
    id TEXT PRIMARY KEY,
    type TEXT NOT NULL,
    body TEXT NOT NULL,
    received_at TEXT NOT NULL,
    processed_at TEXT
  )`);
  const insert = db.prepare('INSERT OR IGNORE INTO events (id, type, body, received_at) VALUES (?, ?, ?, ?)');
  // Reads the raw bytes (at most 1 MiB), checks signature and timestamp, and answers 400/401/413 itself.
  const verify = webhookMiddleware({
    secret: options.secret,
    ...(options.nowSeconds ? { now: options.nowSeconds } : {}),
  });

  const handle = (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== 'POST') return answer(response, 405, { error: 'POST only' });
    verify(request, response, (error) => {
      if (error) return answer(response, 500, { error: 'internal error' });
      const { event, rawBody } = getVerifiedWebhook(request);
      // Stored as received; a repeated id (a retry whose 2xx got lost, or a replay) is acknowledged again, not stored twice.
      const stored = insert.run(event.id, event.type, rawBody.toString('utf8'), new Date().toISOString());
      answer(response, 200, { id: event.id, duplicate: stored.changes === 0 });
    });
  };

  return { handle, db, close: () => db.close() };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const secret = process.env.WEBHOOK_SECRET;
  if (!secret) {
    console.error('Set WEBHOOK_SECRET to the endpoint signing secret (whsec_...).');
    process.exit(1);
  }
  const receiver = createWebhookReceiver({ secret, dbPath: process.env.EVENTS_DB ?? './events.db' });
  const tls = process.env.TLS_CERT_FILE && process.env.TLS_KEY_FILE;
  const server = tls
    ? https.createServer(
        { cert: fs.readFileSync(process.env.TLS_CERT_FILE!), key: fs.readFileSync(process.env.TLS_KEY_FILE!) },
        receiver.handle,
      )
    : http.createServer(receiver.handle);
  const port = Number(process.env.PORT ?? 9000);
  server.listen(port, () => console.log(`webhook receiver listening on ${tls ? 'https' : 'http'}://0.0.0.0:${port}/`));
}
