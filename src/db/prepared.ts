import type { Compilable, InferResult } from 'kysely';
import type { ContextState } from '../context.ts';
import type { Db, Executor } from './database.ts';

/** A compiled statement, run on the executor given at each call: the database, or a unit of work's transaction. */
export type CompiledStatement<Q extends Compilable, A extends unknown[]> = (
  executor: Executor,
  ...args: A
) => Promise<InferResult<Q>>;

/**
 * A query of fixed shape, built and compiled once. Kysely builds and compiles a query on every
 * execution, a fifth of the CPU of a short read (bench/); hot paths run the compiled SQL with
 * fresh parameters instead. `build` receives stand-ins for the arguments, to be used as plain
 * values (`where(col, '=', a)`), never as lists or to choose the query's shape.
 */
function compileOnce<Q extends Compilable, A extends unknown[]>(
  db: Db,
  build: (db: Db, ...args: A) => Q,
  arity: A['length'],
): CompiledStatement<Q, A> {
  const standIns = Array.from({ length: arity }, (_, i) => Symbol(`arg${i}`));
  const compiled = build(db, ...(standIns as unknown as A)).compile();
  const slots = compiled.parameters.map((p) => standIns.indexOf(p as symbol));
  if (standIns.some((s) => !compiled.parameters.includes(s)))
    throw new Error('prepared: every argument must appear in the query as a value');
  return async (executor, ...args) => {
    const parameters = slots.map((slot, i) => (slot === -1 ? compiled.parameters[i] : args[slot]));
    const result = await executor.executeQuery({ ...compiled, parameters });
    return result.rows as InferResult<Q>;
  };
}

/** A query of fixed shape compiled once (see compileOnce), run on `db`. */
export function prepared<Q extends Compilable, A extends unknown[] = []>(
  db: Db,
  build: (db: Db, ...args: A) => Q,
  arity: A['length'] = 0,
): (...args: A) => Promise<InferResult<Q>> {
  const run = compileOnce(db, build, arity);
  return (...args) => run(db, ...args);
}

/** What keeps compiled statements: an AppContext, or in SQL snapshots a recording database with a map. */
export interface PreparedContext {
  db: Db;
  readonly state: Pick<ContextState, 'preparedStatements'>;
}

/** A query of fixed shape compiled once per context (see compileOnce), kept in its state under `name`. */
export function preparedIn<Q extends Compilable, A extends unknown[] = []>(
  ctx: PreparedContext,
  name: string,
  build: (db: Db, ...args: A) => Q,
  arity: A['length'] = 0,
): CompiledStatement<Q, A> {
  const statements = ctx.state.preparedStatements;
  let run = statements.get(name) as CompiledStatement<Q, A> | undefined;
  if (!run) {
    run = compileOnce(ctx.db, build, arity);
    statements.set(name, run);
  }
  return run;
}
