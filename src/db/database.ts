import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  PostgresDialect,
  type PostgresPool,
  type PostgresPoolClient,
  sql,
  SqliteDialect,
  type SqliteStatement,
  type Transaction,
} from 'kysely';
import { ConnectionHealth, isConnectionError } from './connection-health.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
/** Repositories take either the pool or an open transaction. */
export type Executor = Db | Trx;

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  /** PostgreSQL schema the tables live in, when not the default search_path. */
  pgSchema?: string;
  /** PostgreSQL only: how to open a connection of one's own outside the pool (LISTEN needs one). */
  pgClientConfig?: pg.ClientConfig;
  /** Whether connections to the database work (PostgreSQL; a SQLite file is always reachable). */
  health: ConnectionHealth;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL only: schema placed first on the search_path (tests isolate themselves this way). */
  pgSchema?: string;
  /** PostgreSQL only: connections the pool may hold (DATABASE_POOL_SIZE). */
  pgPoolSize?: number;
}

/** PostgreSQL's application_name unless the URL or PGAPPNAME names one: an operator can find (or end) the service's connections by it. */
export const PG_APPLICATION_NAME = 'tasktracker';
/** A new connection that takes longer than this fails (and /readyz answers 503) rather than waiting forever on an unreachable server. */
const PG_CONNECT_TIMEOUT_MS = 5000;

// PostgreSQL returns COUNT(*) and BIGINT as strings; every count we take fits in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

export function dialectOf(url: string): Dialect {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return 'postgres';
  if (url.startsWith('sqlite:')) return 'sqlite';
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${url}"`);
}

/**
 * The file of a `sqlite:` URL, resolved against the working directory: `sqlite:data/x.db` and
 * `sqlite://data/x.db` are both `./data/x.db`, `sqlite:///srv/x.db` is `/srv/x.db`, and
 * `sqlite::memory:` is an in-memory database. No path at all is refused: SQLite would open a
 * temporary database that vanishes when the process stops.
 */
export function sqliteFile(url: string, cwd = process.cwd()): string {
  const rest = url.slice('sqlite:'.length);
  if (rest === ':memory:') return rest;
  const file = rest.startsWith('//') ? rest.slice(2) : rest;
  if (file === '' || file === '/') {
    throw new Error(`DATABASE_URL "${url}" names no file: use sqlite:<path>, e.g. sqlite:./data/tasktracker.db`);
  }
  return path.resolve(cwd, file);
}

/** The database a URL points at, fit for logs and error messages: a PostgreSQL password is left out. */
export function describeDatabase(url: string): string {
  if (dialectOf(url) === 'sqlite') return `sqlite:${sqliteFile(url)}`;
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '';
    parsed.search = '';
    return parsed.toString();
  } catch {
    return 'postgres://(unparseable URL)';
  }
}

export function openDatabase(url: string, options: DatabaseOptions = {}): DatabaseHandle {
  const dialect = dialectOf(url);
  if (dialect === 'postgres') {
    const pgClientConfig: pg.ClientConfig = {
      connectionString: url,
      fallback_application_name: PG_APPLICATION_NAME,
      // A connection lost without a reset (a dead host, a dropped route) still ends, and is replaced.
      keepAlive: true,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    };
    const health = new ConnectionHealth('database');
    const pool = new pg.Pool({
      ...pgClientConfig,
      max: options.pgPoolSize ?? 10,
      connectionTimeoutMillis: PG_CONNECT_TIMEOUT_MS,
    });
    // An idle connection that fails (the server restarted, an administrator ended it, a
    // failover) is dropped by the pool, which then emits 'error': without a listener that
    // would end the process. The next query opens a new connection.
    pool.on('error', (error) => health.lost(error));
    pool.on('connect', () => health.restored());
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool, health) }) });
    return { db, dialect, pgSchema: options.pgSchema, pgClientConfig, health, close: () => db.destroy() };
  }

  const file = sqliteFile(url);
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // SQLite's default page cache is 2 MB: a list rotating over projects re-reads its pages from
  // the OS on every request, a third of its CPU at 100k tasks (bench/RESULTS.md). 32 MB holds
  // the hot pages of such a workspace; it fills only as pages are read.
  sqlite.pragma(`cache_size = -${32 * 1024}`);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return { db, dialect, health: new ConnectionHealth('database'), close: () => db.destroy() };
}

/** Distinct statements given a name per open database; each connection prepares a named one once. */
const NAMED_STATEMENTS = 1000;
const DATA_STATEMENT = /^\s*(select|insert|update|delete|with)\b/i;
/** First statements of a checkout that may run again on another connection after a connection error. */
const RETRYABLE_FIRST = /^\s*(select|begin)\b/i;

/**
 * PostgreSQL parses and plans an unnamed statement on every execution, which for the task read
 * costs several times its execution (docs/performance.md). Kysely sends its queries unnamed;
 * this pool names every data statement by a hash of its text, so each connection prepares it
 * once and reuses the plan (PostgreSQL still re-plans a prepared statement when a generic plan
 * would be worse). Bounded: beyond NAMED_STATEMENTS distinct texts (lists of varying length
 * make new texts), statements go unnamed as before. DDL is never named, so a migration cannot
 * leave a connection holding a plan for a table shape that no longer exists.
 */
function withNamedStatements(pool: pg.Pool, health: ConnectionHealth): PostgresPool {
  const names = new Map<string, string>();
  const nameOf = (text: string): string | undefined => {
    let name = names.get(text);
    if (name === undefined && names.size < NAMED_STATEMENTS && DATA_STATEMENT.test(text)) {
      name = `tt_${createHash('sha1').update(text).digest('base64url')}`;
      names.set(text, name);
    }
    return name;
  };
  // A connection that fails while checked out fails its query too, and is dropped when
  // released; its 'error' event must still have a listener, or it would end the process.
  const failed = (error: Error) => health.lost(error);
  const checkOut = async () => {
    try {
      const client = await pool.connect();
      client.on('error', failed);
      return client;
    } catch (error) {
      if (isConnectionError(error)) health.lost(error);
      throw error;
    }
  };
  return {
    async connect() {
      let client = await checkOut();
      // Set while a dead connection has been given back and no other could be had yet.
      let released = false;
      let first = true;
      const send = (text: string, values?: readonly unknown[]) => {
        const name = nameOf(text);
        return name
          ? client.query({ name, text, values: values as unknown[] })
          : client.query(text, values as unknown[]);
      };
      // A streamed query passes a cursor object instead of text: it goes through as it is, and
      // its caller reads the cursor it returns at once (not a promise of it).
      const query = (text: string | pg.Submittable, values?: readonly unknown[]) => {
        const wasFirst = first;
        first = false;
        if (typeof text !== 'string') return client.query(text);
        return wasFirst ? sendFirst(text, values) : send(text, values);
      };
      const sendFirst = async (text: string, values?: readonly unknown[]) => {
        // The pool can hand out a connection the server ended while it sat idle (a restart, an
        // operator, a proxy's idle timeout) before the pool has heard of it. Nothing ran on it
        // yet, and a read or a `begin` changes nothing, so they go again on another connection,
        // dropping the dead one: at most every idle connection can be dead, then a new one is
        // opened (or fails to open, the outage it is).
        for (let dead = 0; ; dead++) {
          try {
            return await send(text, values);
          } catch (error) {
            if (!isConnectionError(error) || !RETRYABLE_FIRST.test(text) || dead >= pool.options.max) throw error;
            client.removeListener('error', failed);
            client.release(error as Error);
            released = true;
            client = await checkOut();
            released = false;
          }
        }
      };
      const release = () => {
        if (released) return;
        client.removeListener('error', failed);
        client.release();
      };
      return { query, release } as unknown as PostgresPoolClient;
    },
    end: () => pool.end(),
  };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely opens a transaction with a deferred `begin`: one that reads and then writes fails at
 * once with "database is locked" (SQLITE_BUSY_SNAPSHOT, which busy_timeout does not wait out)
 * when another process (a worker, a CLI command) committed in between. `begin immediate` takes
 * the write lock first, so such a transaction waits its turn instead.
 *
 * Kysely's SQLite driver calls `prepare(sql)` for every query it runs, and better-sqlite3
 * compiles the SQL each time: a measurable share of a request's CPU (see bench/). This keeps
 * compiled statements by SQL text. Kysely runs a statement to completion synchronously
 * (`all`/`run`), so one is never in use twice; a statement still `busy` (an open `iterate`)
 * is not handed out again. SQLite re-prepares a statement by itself after a schema change.
 * Bounded: the least recently used statement goes first (lists build `in (?, ?, …)` texts).
 */
function withStatementCache(sqlite: BetterSqlite3.Database) {
  const cache = new Map<string, CachedStatement>();
  return {
    close: () => {
      cache.clear();
      sqlite.close();
    },
    prepare: (text: string) => {
      const sql = text === 'begin' ? 'begin immediate' : text;
      const cached = cache.get(sql);
      if (cached && !cached.busy) {
        cache.delete(sql);
        cache.set(sql, cached);
        return cached;
      }
      const statement = rowsBuiltInJavaScript(sqlite.prepare(sql));
      cache.set(sql, statement);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      return statement;
    },
  };
}

type CachedStatement = SqliteStatement & { readonly busy: boolean };

/**
 * better-sqlite3 builds each row object through V8's embedder API, one property at a time: for
 * a page of 50 task rows that was a third of the statement's time (bench/RESULTS.md). A reading
 * statement here returns each row as an array, and the row objects are built in JavaScript, with
 * the same keys in the same order (a repeated column name keeps its last value, as before).
 */
function rowsBuiltInJavaScript(statement: BetterSqlite3.Statement): CachedStatement {
  if (!statement.reader) return statement;
  const namesNow = () => statement.columns().map((column) => column.name);
  let names = namesNow();
  if (names.includes('__proto__')) return statement;
  statement.raw(true);
  const rowOf = (values: unknown[]) => {
    // SQLite re-prepares a statement after a schema change, and `select *` may then return other columns.
    if (values.length !== names.length) names = namesNow();
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
    return row;
  };
  return {
    reader: true,
    get busy() {
      return statement.busy;
    },
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(rowOf),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>) yield rowOf(values);
    },
    run: (parameters) => statement.run(parameters),
  };
}

/** True when the error is a unique-constraint violation on either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** True when the error is a foreign-key violation on either dialect (a row still references the one being removed). */
export function isForeignKeyViolation(error: unknown): boolean {
  const e = error as { code?: string } | null;
  return e?.code === '23503' || e?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/** Resolves when the database answers a trivial query (readiness checks), and records what it found. */
export async function ping(database: DatabaseHandle): Promise<void> {
  try {
    await sql`select 1`.execute(database.db);
  } catch (error) {
    if (isConnectionError(error)) database.health.lost(error);
    throw error;
  }
  database.health.restored();
}
