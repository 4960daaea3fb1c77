import type { Db, Trx } from './database.ts';

/**
 * Runs last in a write's transaction with what the write returns. The routes store an
 * idempotent response there (responseStoredWithWork in http/idempotency.ts), so the work and
 * the response a retry will replay commit together: a crash between them cannot make a retry
 * redo the work.
 */
export type BeforeCommit<R> = (trx: Trx, result: R) => Promise<void>;

/** `work` in one transaction, then `beforeCommit` with its result before the commit. */
export function transactionWith<R>(db: Db, work: (trx: Trx) => Promise<R>, beforeCommit: BeforeCommit<R> | undefined): Promise<R> {
  return db.transaction().execute(async (trx) => {
    const result = await work(trx);
    await beforeCommit?.(trx, result);
    return result;
  });
}

/** A BeforeCommit for a write whose caller sees `present(result)` rather than its result. */
export function presentedBeforeCommit<R, P>(beforeCommit: BeforeCommit<P> | undefined, present: (result: R) => P): BeforeCommit<R> | undefined {
  return beforeCommit && ((trx, result) => beforeCommit(trx, present(result)));
}
