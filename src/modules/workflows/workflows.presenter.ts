import type { StatusRow } from './statuses.repository.ts';
import type { TransitionRow, transitionsOfWorkflows } from './transitions.repository.ts';
import type { WorkflowRow } from './workflows.repository.ts';

export function presentStatus(row: StatusRow) {
  return { ...row, is_default: Number(row.is_default) === 1 };
}

export type StatusJson = ReturnType<typeof presentStatus>;

export function presentTransition(row: TransitionRow) {
  return {
    id: row.id,
    workflow: row.workflow,
    from_status: row.from_status,
    to_status: row.to_status,
    from_status_name: row.from_status_name,
    to_status_name: row.to_status_name,
    name: row.name,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export type TransitionJson = ReturnType<typeof presentTransition>;

type WorkflowTransitionRow = Awaited<ReturnType<typeof transitionsOfWorkflows>>[number];

/** Workflows with their transitions embedded. */
export function presentWorkflows(rows: WorkflowRow[], transitions: WorkflowTransitionRow[]) {
  return rows.map((row) => ({
    ...row,
    active: Number(row.active) === 1,
    transitions: transitions.filter((t) => t.workflow_id === row.id).map(({ workflow_id: _workflow, ...t }) => t),
  }));
}

export type WorkflowJson = ReturnType<typeof presentWorkflows>[number];
