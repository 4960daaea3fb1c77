import type { Compilable, InferResult } from 'kysely';
import type { AppContext } from '../context.ts';
import type { Db } from './database.ts';

/**
 * A query of fixed shape, built and compiled once. Kysely builds and compiles a query on every
 * execution, a fifth of the CPU of a short read (bench/); hot paths run the compiled SQL with
 * fresh parameters instead. `build` receives stand-ins for the arguments, to be used as plain
 * values (`where(col, '=', a)`), never as lists or to choose the query's shape.
 */
export function prepared<Q extends Compilable, A extends unknown[] = []>(
  db: Db,
  build: (db: Db, ...args: A) => Q,
  arity: A['length'] = 0,
): (...args: A) => Promise<InferResult<Q>> {
  const standIns = Array.from({ length: arity }, (_, i) => Symbol(`arg${i}`));
  const compiled = build(db, ...(standIns as unknown as A)).compile();
  const slots = compiled.parameters.map((p) => standIns.indexOf(p as symbol));
  if (standIns.some((s) => !compiled.parameters.includes(s))) throw new Error('prepared: every argument must appear in the query as a value');
  return async (...args) => {
    const parameters = slots.map((slot, i) => (slot === -1 ? compiled.parameters[i] : args[slot]));
    const result = await db.executeQuery({ ...compiled, parameters });
    return result.rows as InferResult<Q>;
  };
}

/** `prepared` for a context: compiled on first use and kept in its state under `name`. */
export function preparedFor<Q extends Compilable, A extends unknown[] = []>(
  ctx: AppContext,
  name: string,
  build: (db: Db, ...args: A) => Q,
  arity: A['length'] = 0,
): (...args: A) => Promise<InferResult<Q>> {
  const reads = ctx.state.preparedReads;
  let run = reads.get(name) as ((...args: A) => Promise<InferResult<Q>>) | undefined;
  if (!run) {
    run = prepared(ctx.db, build, arity);
    reads.set(name, run);
  }
  return run;
}
