import type { ProjectRow } from './projects.repository.ts';

export function presentProject(row: ProjectRow) {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    description: row.description,
    workflow: row.workflow_id,
    default_status: row.default_status,
    default_task_type: row.default_task_type,
    default_priority: row.default_priority,
    estimate_unit: row.estimate_unit,
    role: row.role,
    created_by: row.created_by,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
