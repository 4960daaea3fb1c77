// A read connection of its own on a worker thread (src/db/sqlite-readers.ts): runs the statements
// the main thread compiled and sends their rows back. Plain JavaScript, so it loads the same way
// from the sources, the tests and the compiled service.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
// This connection never writes: a statement that would is refused by SQLite itself.
db.pragma('query_only = ON');
// SQLite's default page cache: full-text reads measured no faster with a larger one, and each
// thread's cache would count in the process's memory.

const STATEMENT_CACHE_SIZE = 100;
const statements = new Map();

function prepare(sql) {
  let statement = statements.get(sql);
  if (!statement) {
    statement = db.prepare(sql);
    statements.set(sql, statement);
    if (statements.size > STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value);
  }
  return statement;
}

parentPort.on('message', ({ id, sql, parameters, begin, end }) => {
  // The end of a read transaction is not awaited by the main thread, and has nothing to answer.
  if (end) {
    if (db.inTransaction) db.exec('rollback');
    return;
  }
  try {
    if (begin) db.exec('begin');
    const statement = prepare(sql);
    if (statement.reader) parentPort.postMessage({ id, rows: statement.all(...parameters) });
    else {
      statement.run(...parameters);
      parentPort.postMessage({ id, rows: [] });
    }
  } catch (error) {
    parentPort.postMessage({ id, error: { message: error.message, code: error.code } });
  }
});
