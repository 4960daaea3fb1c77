import {
  DummyDriver,
  Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
} from 'kysely';
import type { Db, Dialect } from '../../src/db/database.ts';
import type { Database } from '../../src/db/schema.ts';

/**
 * What a repository function is called with to record its SQL: a database that compiles for
 * one dialect and answers every statement with no rows, so a function's statements are
 * recorded up to the first one whose result it needs.
 */
export interface SnapshotDb {
  db: Db;
  dialect: Dialect;
}

// Any repository function: its calls are checked against its own parameters at the call site.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyFunction = (...args: any[]) => unknown;

/** One entry per exported function of a repository module; the compiler refuses a missing one. */
export type SnapshotCalls<M> = { [K in keyof M as M[K] extends AnyFunction ? K : never]: (s: SnapshotDb) => unknown };

export interface RepositorySnapshots {
  /** The repository's path under src/, e.g. `modules/comments/comment.repository.ts`. */
  file: string;
  calls: Record<string, (s: SnapshotDb) => unknown>;
}

export function snapshotsOf<M>(file: string, _module: M, calls: SnapshotCalls<M>): RepositorySnapshots {
  return { file, calls: calls as Record<string, (s: SnapshotDb) => unknown> };
}

function recordingDb(dialect: Dialect, queries: CompiledQuery[]): Db {
  const parts =
    dialect === 'postgres'
      ? {
          createAdapter: () => new PostgresAdapter(),
          createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
          createQueryCompiler: () => new PostgresQueryCompiler(),
        }
      : {
          createAdapter: () => new SqliteAdapter(),
          createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
          createQueryCompiler: () => new SqliteQueryCompiler(),
        };
  return new Kysely<Database>({
    dialect: { ...parts, createDriver: () => new DummyDriver() },
    log: (event) => void (event.level === 'query' && queries.push(event.query)),
  });
}

/** The statements one call issues, as committed to `sql/<dialect>/`. */
export async function recordCall(dialect: Dialect, call: (s: SnapshotDb) => unknown): Promise<string> {
  const queries: CompiledQuery[] = [];
  const db = recordingDb(dialect, queries);
  let stopped = '';
  try {
    await call({ db, dialect });
  } catch (error) {
    // An empty result a function cannot go on without: what it issued so far is its SQL.
    stopped = `-- (stops here without a row: ${error instanceof Error ? error.message : String(error)})\n`;
  }
  await db.destroy();
  const statements = queries.map(
    (q) => `${q.sql};${q.parameters.length ? `\n-- parameters: ${JSON.stringify(q.parameters)}` : ''}\n`,
  );
  return statements.join('') + stopped;
}
