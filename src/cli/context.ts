import { loadConfig } from '../config.ts';
import { type AppContext, createAppContext } from '../context.ts';
import { describeDatabase, openDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrate.ts';

/** Opens the configured database, brings its schema up to date, and returns the shared context. */
export async function openContext(): Promise<AppContext> {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl);
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.close().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot use the database ${describeDatabase(config.databaseUrl)}: ${reason || (error as { code?: string }).code || 'unknown error'}`,
    );
  }
  return createAppContext({ config, database });
}
