import type { Executor } from '../../db/database.ts';
import type { Tx } from '../../db/unit-of-work.ts';
import type { ActionOrigin } from '../../events/record-event.ts';
import type { Principal } from '../../identity/principal.ts';
import { projectFor } from '../../policy/index.ts';
import { visibleOne } from '../../policy/visible-one.ts';
import { deleteAndDetach, type PlanningItem } from './detach.ts';
import { withUniqueName } from './planning.errors.ts';

/** What the label, milestone and sprint services share. */

/** The project, if the caller may change its labels, milestones and sprints (404 or 403 otherwise). */
export const projectToPlan = (db: Executor, principal: Principal, by: { id: number } | { key: string }) =>
  projectFor(db, principal, by, 'project.contribute', 'labels, milestones and sprints');

/** Those of `fields` that `changes` gives a value other than the current one, in the order of `fields`. */
export function changedFields<F, K extends keyof F>(
  current: Pick<F, K>,
  changes: Partial<F>,
  fields: readonly K[],
): Partial<F> {
  const set: Partial<F> = {};
  for (const field of fields) {
    if (changes[field] !== undefined && changes[field] !== current[field]) set[field] = changes[field];
  }
  return set;
}

/** How a kind of item is written; each write may refuse with the kind's own answers. */
export interface ItemWrites<R, V> {
  /** Inserts the item into the project; its id. */
  insert(tx: Tx, projectId: number, values: V): Promise<number>;
  /** Writes the changed fields `set` of the current row. */
  update(tx: Tx, current: R, set: Partial<V>): Promise<void>;
}

/** Writes of a kind whose one unique index is the name in the project: a clash answers ALREADY_EXISTS. */
export function uniqueNameWrites<R extends { id: number; name: string }, V extends { name: string }>(
  kind: PlanningItem['kind'],
  insert: (db: Executor, projectId: number, values: V, at: string) => Promise<number>,
  update: (db: Executor, id: number, set: Partial<V>, at: string) => Promise<void>,
): ItemWrites<R, V> {
  return {
    insert: (tx, projectId, values) =>
      withUniqueName(kind, values.name, () => insert(tx.db, projectId, values, tx.clock.nowIso())),
    update: (tx, current, set) =>
      withUniqueName(kind, set.name ?? current.name, () => update(tx.db, current.id, set, tx.clock.nowIso())),
  };
}

/**
 * The reads and writes of one kind of planning item: `read` answers it presented (404 unless
 * visible), `changeable` gives the row once the caller may also change it (403 otherwise), and
 * writes answer the item as it then is. A removed item first comes off every task carrying it.
 */
export function planningItems<R extends { id: number; project_id: number }, J, V>(
  kind: PlanningItem['kind'],
  findVisible: (db: Executor, principal: Principal, id: number) => Promise<R | undefined>,
  present: (row: R) => J,
  writes: ItemWrites<R, V>,
) {
  const visible = visibleOne(kind.charAt(0).toUpperCase() + kind.slice(1), findVisible, present);

  async function changeable(tx: Tx, principal: Principal, id: number): Promise<R> {
    const current = await visible.find(tx, principal, id);
    await projectToPlan(tx.db, principal, { id: current.project_id });
    return current;
  }

  return {
    read: visible.read,
    /** The row, 404 unless visible. */
    find: visible.find,
    async create(tx: Tx, principal: Principal, projectKey: string, values: V): Promise<J> {
      const project = await projectToPlan(tx.db, principal, { key: projectKey });
      return visible.read(tx, principal, await writes.insert(tx, project.id, values));
    },
    /** Writes what `changesOf` finds changed in the current row; nothing changed, nothing is written. */
    async update(tx: Tx, principal: Principal, id: number, changesOf: (current: R) => Partial<V>): Promise<J> {
      const current = await changeable(tx, principal, id);
      const set = changesOf(current);
      if (Object.keys(set).length === 0) return present(current);
      await writes.update(tx, current, set);
      return visible.read(tx, principal, id);
    },
    async remove(tx: Tx, principal: Principal, id: number, origin: ActionOrigin): Promise<void> {
      await changeable(tx, principal, id);
      await deleteAndDetach(tx, origin, { kind, id });
    },
  };
}
