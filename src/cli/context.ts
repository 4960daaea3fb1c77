import { loadConfig } from '../config.ts';
import { type AppContext, createAppContext } from '../context.ts';
import { describeDatabase, openDatabase } from '../db/database.ts';
import { assertSchemaCurrent, migrateToLatest, migrationStatus } from '../db/migrate.ts';

/**
 * Opens the configured database and returns the shared context. `schema: 'migrate'` brings the
 * schema up to date first (`serve` and `worker`); `'current'` refuses a schema that is not
 * exactly this version's; `'any'` leaves it as it is (`migrate` itself).
 */
export async function openContext(schema: 'migrate' | 'current' | 'any'): Promise<AppContext> {
  const config = loadConfig();
  const database = openDatabase(config.databaseUrl, { pgPoolSize: config.databasePoolSize });
  try {
    if (schema === 'migrate') await migrateToLatest(database);
    else if (schema === 'current') await assertSchemaCurrent(database);
    // Reaches the database, so an unreachable one is reported here like for other commands.
    else await migrationStatus(database);
  } catch (error) {
    await database.close().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot use the database ${describeDatabase(config.databaseUrl)}: ${reason || (error as { code?: string }).code || 'unknown error'}`,
    );
  }
  return createAppContext({ config, database });
}
