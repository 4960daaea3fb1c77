import type { LabelRow, MilestoneRow, SprintRow } from './planning.repository.ts';

export function presentLabel(row: LabelRow) {
  return {
    id: row.id,
    project: row.project,
    name: row.name,
    color: row.color,
    description: row.description,
    task_count: Number(row.task_count ?? 0),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentMilestone(row: MilestoneRow) {
  return {
    id: row.id,
    project: row.project,
    name: row.name,
    description: row.description,
    due_date: row.due_date,
    state: row.state,
    task_count: Number(row.task_count ?? 0),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function presentSprint(row: SprintRow) {
  return {
    id: row.id,
    project: row.project,
    name: row.name,
    goal: row.goal,
    start_date: row.start_date,
    end_date: row.end_date,
    state: row.state,
    task_count: Number(row.task_count ?? 0),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
