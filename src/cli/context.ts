import { systemClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';

/** Opens the configured database, brings its schema up to date, and returns the shared context. */
export async function openContext(): Promise<AppContext> {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  return { config, database, db: database.db, dialect: database.dialect, clock: systemClock };
}
