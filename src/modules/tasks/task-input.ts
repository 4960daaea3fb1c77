import type { Executor } from '../../db/database.ts';
import type { Principal } from '../../identity/principal.ts';
import { customValuesByTask } from '../custom-fields/custom-fields.repository.ts';
import { resolveCustomFieldValues } from '../custom-fields/values.ts';
import { parentProblem } from './hierarchy.ts';
import * as repo from './task-input.repository.ts';
import type { TaskRow } from './task.repository.ts';
import type { TaskUpdateInput } from './task.schemas.ts';
import { isBlank } from '../../http/text.ts';
import type { TaskChanges, TaskValues } from './task-writes.ts';

export type FieldErrors = Record<string, string>;

/** A start after the due date is refused naming both, whichever of the two the input sets. */
function datesInOrder({ changes, errors }: Resolved, current: TaskRow | null): void {
  const start = changes.start_date !== undefined ? changes.start_date : (current?.start_date ?? null);
  const due = changes.due_date !== undefined ? changes.due_date : (current?.due_date ?? null);
  // YYYY-MM-DD strings compare like the dates they name.
  if (start === null || due === null || start <= due) return;
  errors.start_date = `must not be after due_date (${due})`;
  errors.due_date = `must not be before start_date (${start})`;
}

interface Resolved {
  changes: TaskChanges;
  errors: FieldErrors;
}

type NamedTable = repo.NamedTable;

export interface ProjectDefaults {
  default_task_type_id: number | null;
  default_priority_id: number | null;
  default_status_id: number | null;
}

/**
 * Turns the API's names and keys into the ids a task row stores, checked against one
 * project: its task types, priorities, statuses, labels, milestones, sprints, members and
 * tasks, and the custom field definitions the caller sees. Unknown values become per-field
 * messages rather than exceptions, so bulk calls can report every bad item. The project's
 * vocabulary is loaded once per resolver (one per request).
 */
export class TaskInputResolver {
  private readonly named = new Map<NamedTable, Promise<Map<string, number>>>();

  constructor(
    private readonly db: Executor,
    private readonly principal: Principal,
    private readonly project: { id: number; organization_id: number },
  ) {}

  private vocabulary(table: NamedTable): Promise<Map<string, number>> {
    let loaded = this.named.get(table);
    if (!loaded) {
      loaded = repo.namesOfProject(this.db, table, this.project.id);
      this.named.set(table, loaded);
    }
    return loaded;
  }

  private async namedId(table: NamedTable, name: string): Promise<number | undefined> {
    return (await this.vocabulary(table)).get(name);
  }

  /** The project's defaults for a new task (as takeTaskNumber returns them); a missing default falls back to the first in order. */
  async defaults(project: ProjectDefaults): Promise<Pick<TaskValues, 'task_type_id' | 'priority_id' | 'status_id'>> {
    const first = async (table: NamedTable) => {
      const id = await repo.firstOfProject(this.db, table, this.project.id);
      if (id === undefined) throw new Error(`project ${this.project.id} has no ${table}`);
      return id;
    };
    return {
      task_type_id: project.default_task_type_id ?? (await first('task_types')),
      priority_id: project.default_priority_id ?? (await first('priorities')),
      status_id: project.default_status_id ?? (await first('statuses')),
    };
  }

  /**
   * Resolves the fields present in `input`. `current` is the task being changed (null when
   * creating): values equal to the current ones skip the checks that only guard changes
   * (membership of the assignee, the hierarchy rules), so an unrelated edit never fails on them.
   */
  async resolve(input: TaskUpdateInput, current: TaskRow | null): Promise<Resolved> {
    const out: Resolved = { changes: {}, errors: {} };
    if (input.title !== undefined) {
      if (isBlank(input.title))
        out.errors.title = 'must not be blank (whitespace and invisible characters alone do not count)';
      else out.changes.title = input.title;
    }
    if (input.description !== undefined) out.changes.description = input.description;
    await this.resolveNamed(input, out);
    await this.resolveAssignee(input, current, out);
    if (input.due_date !== undefined) out.changes.due_date = input.due_date;
    if (input.start_date !== undefined) out.changes.start_date = input.start_date;
    if (input.estimate !== undefined) out.changes.estimate = input.estimate;
    datesInOrder(out, current);
    await this.resolveLabels(input, out);
    await this.resolvePlanning(input, out);
    await this.resolveParent(input, current, out);
    // On create this runs even without input: required fields must then be reported.
    if (input.custom_fields !== undefined || current === null) {
      const present =
        current === null ? null : ((await customValuesByTask(this.db, [current.id])).get(current.id) ?? {});
      const custom = await resolveCustomFieldValues(
        this.db,
        this.principal,
        this.project,
        input.custom_fields,
        present,
      );
      Object.assign(out.errors, custom.errors);
      out.changes.custom_fields = custom.changes;
    }
    return out;
  }

  /** Task type, priority and status: names of the project's own. */
  private async resolveNamed(input: TaskUpdateInput, { changes, errors }: Resolved): Promise<void> {
    const named: Array<
      [
        field: 'task_type' | 'priority' | 'status',
        table: NamedTable,
        column: 'task_type_id' | 'priority_id' | 'status_id',
        what: string,
      ]
    > = [
      ['task_type', 'task_types', 'task_type_id', 'task types'],
      ['priority', 'priorities', 'priority_id', 'priorities'],
      ['status', 'statuses', 'status_id', 'statuses'],
    ];
    for (const [field, table, column, what] of named) {
      const name = input[field];
      if (name === undefined) continue;
      const id = await this.namedId(table, name);
      if (id === undefined) errors[field] = `"${name}" is not one of this project's ${what}`;
      else changes[column] = id;
    }
  }

  private async resolveAssignee(
    input: TaskUpdateInput,
    current: TaskRow | null,
    { changes, errors }: Resolved,
  ): Promise<void> {
    if (input.assignee === undefined) return;
    if (input.assignee !== null && input.assignee !== current?.assignee_id) {
      const members = await repo.membersAmong(this.db, this.project.id, [input.assignee]);
      if (!members.has(input.assignee)) errors.assignee = `user ${input.assignee} is not a member of this project`;
    }
    if (!errors.assignee) changes.assignee_id = input.assignee;
  }

  private async resolveLabels(input: TaskUpdateInput, { changes, errors }: Resolved): Promise<void> {
    if (input.labels === undefined) return;
    const rows = input.labels.length ? await repo.labelsNamed(this.db, this.project.id, input.labels) : [];
    const unknown = input.labels.filter((name) => !rows.some((r) => r.name === name));
    if (unknown.length) errors.labels = `not labels of this project: ${unknown.map((n) => `"${n}"`).join(', ')}`;
    else changes.label_ids = rows.map((r) => r.id);
  }

  /** Milestone and sprint: ids of the project's own, or null. */
  private async resolvePlanning(input: TaskUpdateInput, { changes, errors }: Resolved): Promise<void> {
    for (const [field, table] of [
      ['milestone', 'milestones'],
      ['sprint', 'sprints'],
    ] as const) {
      const id = input[field];
      if (id === undefined) continue;
      if (id !== null && !(await repo.planningItemExists(this.db, table, this.project.id, id))) {
        errors[field] = `no ${field} with id ${id} in this project`;
        continue;
      }
      changes[`${field}_id`] = id;
    }
  }

  /** A parent of the same project, within the hierarchy rules (hierarchy.ts); null makes a top-level task. */
  private async resolveParent(
    input: TaskUpdateInput,
    current: TaskRow | null,
    { changes, errors }: Resolved,
  ): Promise<void> {
    if (input.parent === undefined) return;
    if (input.parent === null) {
      changes.parent_id = null;
      return;
    }
    if (input.parent === current?.parent_key) return;
    const parentId = await repo.taskIdByKey(this.db, this.project.id, input.parent);
    const problem =
      parentId !== undefined
        ? await parentProblem(this.db, current?.id ?? null, parentId)
        : `no task ${input.parent} in this project (a parent must be in the same project)`;
    if (problem) errors.parent = problem;
    else changes.parent_id = parentId!;
  }
}
