import * as repo from '../../src/modules/tasks/task-writes.repository.ts';
import { snapshotsOf } from './record.ts';

const at = '2026-11-21T09:00:00.000000Z';

export default snapshotsOf('modules/tasks/task-writes.repository.ts', repo, {
  takeTaskNumber: ({ db }) => repo.takeTaskNumber(db, 10),
  insertTask: ({ db }) =>
    repo.insertTask(db, {
      project_id: 10,
      number: 7,
      key: 'PROJ-7',
      title: 'Fix the login',
      description: '',
      task_type_id: 1,
      priority_id: 2,
      status_id: 3,
      assignee_id: null,
      due_date: null,
      milestone_id: null,
      sprint_id: null,
      parent_id: null,
      version: 1,
      created_by: 3,
      created_at: at,
      updated_at: at,
    }),
  updateTaskColumns: ({ db }) => repo.updateTaskColumns(db, 42, { status_id: 4, version: 2, updated_at: at }),
  deleteTaskRow: ({ db }) => repo.deleteTaskRow(db, 42),
  findTaskHead: ({ db }) => repo.findTaskHead(db, 42),
  childIdsOf: ({ db }) => repo.childIdsOf(db, 42),
  replaceLabels: ({ db }) => repo.replaceLabels(db, 42, [5, 6]),
  upsertCustomValue: ({ db }) => repo.upsertCustomValue(db, 42, 9, '"text"'),
  deleteCustomValue: ({ db }) => repo.deleteCustomValue(db, 42, 9),
  insertTaskWriteRecords: ({ db, dialect }) =>
    repo.insertTaskWriteRecords(db, dialect, {
      activities: [
        {
          task_id: 42,
          actor_id: 3,
          action: 'updated',
          field: 'status',
          from_value: '"To Do"',
          to_value: '"Done"',
          created_at: at,
        },
      ],
      change: { project_id: 10, task_id: 42, task_key: 'PROJ-7', action: 'updated', task: '{}', changed_at: at },
      events: [
        {
          event_id: 'evt_1',
          type: 'task.updated',
          organization_id: 1,
          project_id: 10,
          actor_id: 3,
          correlation_id: 'req-1',
          envelope: '{}',
          occurred_at: at,
          fanned_out_at: null,
        },
        {
          event_id: 'evt_2',
          type: 'task.status_changed',
          organization_id: 1,
          project_id: 10,
          actor_id: 3,
          correlation_id: 'req-1',
          envelope: '{}',
          occurred_at: at,
          fanned_out_at: null,
        },
      ],
    }),
});
