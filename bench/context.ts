import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { type AppContext, createAppContext } from '../src/context.ts';
import { type DatabaseHandle, openDatabase } from '../src/db/database.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { ALL_SCOPES } from '../src/identity/scopes.ts';
import { createOrganization, createUser } from '../src/modules/accounts/accounts.service.ts';
import { createToken } from '../src/identity/tokens.service.ts';

/** The service's context for benchmarks: real clock and configuration, rate limits out of the way of the load. */
export function benchContext(database: DatabaseHandle): AppContext {
  const base = loadConfig({});
  return createAppContext({
    config: { ...base, rateLimit: { ...base.rateLimit, tokenBurst: 1e9, orgHourly: 1e9, searchPerMinute: 1e9 } },
    database,
  });
}

/**
 * A benchmark's own service in this process: a fresh database (DATABASE_URL, else a temporary
 * SQLite file), one organization, and an admin service account whose token every request sends.
 * `get` fails the run on any answer but 200, so a figure never measures an error.
 */
export async function benchService(name: string) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `tasktracker-${name}-`));
  const database = openDatabase(process.env.DATABASE_URL ?? `sqlite:${path.join(tmp, `${name}.db`)}`);
  await migrateToLatest(database);
  const ctx = benchContext(database);
  const app = await buildApp(ctx, { logger: false });
  const slug = `${name}-${Date.now()}`;
  await createOrganization(ctx, { name, slug });
  const bot = await createUser(ctx, { org: slug, kind: 'service', name, role: 'admin' });
  const { token } = await createToken(ctx, { accountId: bot.id, scopes: ALL_SCOPES });
  const headers = { authorization: `Bearer ${token}`, accept: 'application/json' };
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers });
    if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}: ${res.body}`);
    return res;
  };
  const close = async () => {
    await app.close();
    await database.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  return { ctx, app, bot, headers, get, close };
}
