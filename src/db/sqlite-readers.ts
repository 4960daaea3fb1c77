import os from 'node:os';
import { Worker } from 'node:worker_threads';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { Database } from './schema.ts';

interface Pending {
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

/** One worker thread holding one read connection; a request is one statement. */
class ReaderConnection implements DatabaseConnection {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  failed = false;

  constructor(file: string) {
    this.worker = new Worker(new URL('./sqlite-reader.worker.mjs', import.meta.url), {
      workerData: { file },
      // The thread holds ids and counts, never large results: a small heap keeps the process's RSS down.
      resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 64 },
    });
    this.worker.on('message', ({ id, rows, error }: { id: number; rows?: unknown[]; error?: { message: string; code?: string } }) => {
      const request = this.pending.get(id);
      this.pending.delete(id);
      if (error) request?.reject(Object.assign(new Error(error.message), { code: error.code }));
      else request?.resolve(rows!);
    });
    const fail = (error: Error) => {
      this.failed = true;
      for (const request of this.pending.values()) request.reject(error);
      this.pending.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`SQLite reader thread exited with code ${code}`)));
  }

  /** A transaction's BEGIN goes with its first statement: a thread round trip less. */
  private beginWithNext = false;

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.failed) return Promise.reject(new Error('SQLite reader thread is gone'));
    const id = this.nextId++;
    const begin = this.beginWithNext;
    this.beginWithNext = false;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve: (rows) => resolve({ rows: rows as R[] }), reject });
      this.worker.postMessage({ id, sql: query.sql, parameters: query.parameters, begin });
    });
  }

  begin(): void {
    this.beginWithNext = true;
  }

  /**
   * Ends a read transaction without waiting: the thread handles messages in order, so the next
   * statement runs after it, and ending a read cannot fail in a way a caller could act on.
   */
  end(): void {
    if (this.beginWithNext) this.beginWithNext = false;
    else if (!this.failed) this.worker.postMessage({ end: true });
  }

  // eslint-disable-next-line require-yield -- the interface asks for a generator; nothing here streams
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('SQLite readers do not stream');
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

/** A pool of reader threads: a transaction takes one for its whole length, others queue. */
class ReadersDriver implements Driver {
  private readonly idle: ReaderConnection[] = [];
  private readonly all = new Set<ReaderConnection>();
  private readonly waiting: Array<(connection: ReaderConnection) => void> = [];

  constructor(
    private readonly file: string,
    private readonly size: number,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = this.idle.pop();
    if (connection) return connection;
    if (this.all.size < this.size) {
      const started = new ReaderConnection(this.file);
      this.all.add(started);
      return started;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const reader = connection as ReaderConnection;
    if (reader.failed) {
      // A thread that died is replaced by the next acquire.
      this.all.delete(reader);
      const next = this.waiting.shift();
      if (next) void this.acquireConnection().then((replacement) => next(replacement as ReaderConnection));
      return;
    }
    const next = this.waiting.shift();
    if (next) next(reader);
    else this.idle.push(reader);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as ReaderConnection).begin();
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as ReaderConnection).end();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    (connection as ReaderConnection).end();
  }

  async destroy(): Promise<void> {
    await Promise.all([...this.all].map((reader) => reader.terminate()));
    this.all.clear();
    this.idle.length = 0;
  }
}

/**
 * Read-only connections to a SQLite file on worker threads, one per core: a costly read (a
 * full-text search) runs there, beside the main thread and each other, instead of queueing on
 * the one connection every request shares. WAL lets them read while the main connection writes.
 * Threads start on first use.
 */
export function openSqliteReaders(file: string, size = Math.min(4, os.availableParallelism())): Kysely<Database> {
  return new Kysely<Database>({
    dialect: {
      createAdapter: () => new SqliteAdapter(),
      createDriver: () => new ReadersDriver(file, size),
      createQueryCompiler: () => new SqliteQueryCompiler(),
      createIntrospector: (db) => new SqliteIntrospector(db),
    },
  });
}
