import { sql } from 'kysely';
import type { MigrationContext } from './helpers.ts';

/**
 * PostgreSQL search in two tiers without rechecking rows (src/modules/search/search.service.ts).
 * Telling title matches from the rest through the weights of `search_vector` makes the GIN index
 * lossy: every candidate row is read and its vector evaluated again, most of a search's cost
 * when a word matches a tenth of all tasks. A vector of the title alone, with its own index,
 * answers "the title holds every word" from the index.
 *
 * Both indexes keep GIN's pending list small (128 kB instead of 4 MB): a task write appends its
 * entries there cheaply, and the writer that fills it merges it into the index, so a search
 * never scans more than that, where a write-heavy tasks table otherwise piles up entries that
 * every search reads linearly until a vacuum merges them. SQLite's FTS5 index already separates
 * the title column: nothing to do there.
 */
const PENDING_LIST_KB = 128;

export async function up({ db, dialect }: MigrationContext): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`ALTER TABLE tasks ADD COLUMN title_vector tsvector GENERATED ALWAYS AS (to_tsvector('english', title)) STORED`.execute(
    db,
  );
  await sql`CREATE INDEX tasks_title_search_idx ON tasks USING GIN (title_vector) WITH (gin_pending_list_limit = ${sql.lit(PENDING_LIST_KB)})`.execute(
    db,
  );
  await sql`ALTER INDEX tasks_search_idx SET (gin_pending_list_limit = ${sql.lit(PENDING_LIST_KB)})`.execute(db);
  await sql`SELECT gin_clean_pending_list('tasks_search_idx')`.execute(db);
}
