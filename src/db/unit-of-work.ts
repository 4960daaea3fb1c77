import { sql } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Trx } from './database.ts';

/**
 * A context whose `db` is an open transaction: what a write's service receives. Everything it
 * does commits together or not at all; effects outside the database (a wake-up, a cache drop,
 * a file removal) wait for the commit through `afterCommit`.
 */
export interface Tx extends AppContext {
  db: Trx;
  afterCommit(effect: () => unknown): void;
}

/**
 * Runs `work` in one transaction and then its after-commit effects. Inside a unit of work
 * already, `work` joins it: a service may call another service's write.
 */
export async function inTransaction<R>(ctx: AppContext | Tx, work: (tx: Tx) => Promise<R>): Promise<R> {
  if ('afterCommit' in ctx) return work(ctx);
  const effects: Array<() => unknown> = [];
  const result = await ctx.db
    .transaction()
    .execute((trx) => work({ ...ctx, db: trx, afterCommit: (effect) => void effects.push(effect) }));
  for (const effect of effects) await effect();
  return result;
}

/**
 * Runs `statement` so that its failure leaves the transaction usable: on PostgreSQL a failed
 * statement (a unique violation a service turns into a 409) aborts the whole transaction
 * otherwise, and nothing after it, not even a read for the error message, could run.
 */
export async function withSavepoint<R>(tx: Tx, statement: () => Promise<R>): Promise<R> {
  await sql`savepoint statement`.execute(tx.db);
  try {
    const result = await statement();
    await sql`release savepoint statement`.execute(tx.db);
    return result;
  } catch (error) {
    await sql`rollback to savepoint statement`.execute(tx.db);
    await sql`release savepoint statement`.execute(tx.db);
    throw error;
  }
}
