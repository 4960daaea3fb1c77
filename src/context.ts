import type { Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { DatabaseHandle, Db, Dialect } from './db/database.ts';
import type { WebhookIo } from './modules/webhooks/io.ts';

/** What services, the worker and the CLI share. Built once per process (or per test). */
export interface AppContext {
  config: Config;
  db: Db;
  dialect: Dialect;
  database: DatabaseHandle;
  clock: Clock;
  /** Overrides of the webhook machinery's DNS, TLS trust and mail (tests); defaults come from config. */
  webhookIo?: Partial<WebhookIo>;
}
