import type { Executor } from '../db/database.ts';
import { foundOr404 } from '../http/errors.ts';
import type { Principal } from '../identity/principal.ts';

/**
 * One row by id among those the caller sees: `find` gives the row (a 404 naming `what` when it is
 * absent or invisible, which read the same), `read` gives it presented, as both reads and the
 * answers of writes return it. Both take the request's context or the open transaction.
 */
export function visibleOne<R, J>(
  what: string,
  findVisible: (db: Executor, principal: Principal, id: number) => Promise<R | undefined>,
  present: (row: R) => J,
) {
  const find = (ctx: { db: Executor }, principal: Principal, id: number): Promise<R> =>
    foundOr404(findVisible(ctx.db, principal, id), what);
  const read = async (ctx: { db: Executor }, principal: Principal, id: number): Promise<J> =>
    present(await find(ctx, principal, id));
  return { find, read };
}
