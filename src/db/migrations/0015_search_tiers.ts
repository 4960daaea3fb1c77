import { sql } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * PostgreSQL search in two tiers without rechecking rows (src/modules/search/search.service.ts).
 * Telling title matches from the rest through the weights of `search_vector` makes the GIN index
 * lossy: every candidate row is read and its vector evaluated again, most of a search's cost
 * when a word matches a tenth of all tasks. A vector of the title alone, with its own index,
 * answers "the title holds every word" from the index.
 *
 * Both indexes skip GIN's pending list (`fastupdate = off`): a write-heavy tasks table otherwise
 * piles up entries that every search scans linearly until a vacuum merges them, so searches slow
 * down between vacuums. Each task write updates the index directly instead. SQLite's FTS5 index
 * already separates the title column: nothing to do there.
 */
export async function up({ db, dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`ALTER TABLE tasks ADD COLUMN title_vector tsvector GENERATED ALWAYS AS (to_tsvector('english', title)) STORED`.execute(db);
  await sql`CREATE INDEX tasks_title_search_idx ON tasks USING GIN (title_vector) WITH (fastupdate = off)`.execute(db);
  await sql`SELECT gin_clean_pending_list('tasks_search_idx')`.execute(db);
  await sql`ALTER INDEX tasks_search_idx SET (fastupdate = off)`.execute(db);
}
