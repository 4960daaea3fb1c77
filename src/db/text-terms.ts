import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import type { Dialect, Executor } from './database.ts';

/**
 * The terms a text is indexed under, by the full-text index's own configuration, so that a
 * query's `~` tested on a task in memory (src/modules/query/predicate.ts) agrees with `~` in
 * SQL about stems, accents and stop words.
 *
 * SQLite: a private in-memory database with an FTS5 table tokenized as `tasks_fts` is (migration
 * 0017), read through fts5vocab. PostgreSQL: `to_tsvector('english', ...)`, as `search_vector`
 * and `title_vector` are built (migrations 0006 and 0015).
 */
export interface TextTerms {
  terms(texts: string[]): Promise<Array<Set<string>>>;
}

export function textTerms(db: Executor, dialect: Dialect): TextTerms {
  return dialect === 'postgres' ? postgresTerms(db) : sqliteTerms();
}

function postgresTerms(db: Executor): TextTerms {
  return {
    async terms(texts) {
      if (texts.length === 0) return [];
      const { rows } = await sql<{ i: number | string; terms: string[] }>`
        select u.i, tsvector_to_array(to_tsvector('english', u.text)) as terms
        from unnest(${texts}::text[]) with ordinality as u(text, i)`.execute(db);
      const result = texts.map(() => new Set<string>());
      for (const row of rows) result[Number(row.i) - 1] = new Set(row.terms);
      return result;
    },
  };
}

let sqliteIndex:
  { add: BetterSqlite3.Statement; read: BetterSqlite3.Statement; clear: BetterSqlite3.Statement } | undefined;

function sqliteTerms(): TextTerms {
  if (!sqliteIndex) {
    const memory = new BetterSqlite3(':memory:');
    memory.exec(`CREATE VIRTUAL TABLE d USING fts5(body, tokenize='porter unicode61 remove_diacritics 2');
      CREATE VIRTUAL TABLE v USING fts5vocab(d, 'instance');`);
    sqliteIndex = {
      add: memory.prepare('INSERT INTO d(rowid, body) VALUES (?, ?)'),
      read: memory.prepare('SELECT doc, term FROM v'),
      clear: memory.prepare('DELETE FROM d'),
    };
  }
  const index = sqliteIndex;
  return {
    async terms(texts) {
      // Synchronous from the first insert to the clear: nothing else uses the index meanwhile.
      texts.forEach((text, i) => index.add.run(i + 1, text));
      const result = texts.map(() => new Set<string>());
      for (const row of index.read.all() as Array<{ doc: number; term: string }>) result[row.doc - 1]!.add(row.term);
      index.clear.run();
      return result;
    },
  };
}
