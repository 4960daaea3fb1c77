import type { LabelRow, MilestoneRow, SprintRow } from './planning.repository.ts';

type PlanningRow = LabelRow | MilestoneRow | SprintRow;

/** What every label, milestone and sprint answers, with the kind's own fields between its name and its task count. */
function presentPlanningItem<F extends object>(row: PlanningRow, own: F) {
  return {
    id: row.id,
    project: row.project,
    name: row.name,
    ...own,
    task_count: Number(row.task_count ?? 0),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export const presentLabel = (row: LabelRow) =>
  presentPlanningItem(row, { color: row.color, description: row.description });

export const presentMilestone = (row: MilestoneRow) =>
  presentPlanningItem(row, { description: row.description, due_date: row.due_date, state: row.state });

export const presentSprint = (row: SprintRow) =>
  presentPlanningItem(row, { goal: row.goal, start_date: row.start_date, end_date: row.end_date, state: row.state });
