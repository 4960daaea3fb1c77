import * as repo from '../../src/modules/planning/planning.repository.ts';
import { snapshotsOf } from './record.ts';
import { firstPage, principal } from './samples.ts';

const at = '2026-11-21T09:00:00.000Z';

export default snapshotsOf('modules/planning/planning.repository.ts', repo, {
  labelsPage: ({ db }) => repo.labelsPage(db, principal, 10, undefined, firstPage),
  milestonesPage: ({ db }) => repo.milestonesPage(db, principal, 10, 'open', firstPage),
  sprintsPage: ({ db }) => repo.sprintsPage(db, principal, 10, 'active', firstPage),
  findVisibleLabel: ({ db }) => repo.findVisibleLabel(db, principal, 5),
  findVisibleMilestone: ({ db }) => repo.findVisibleMilestone(db, principal, 5),
  findVisibleSprint: ({ db }) => repo.findVisibleSprint(db, principal, 5),
  insertLabel: ({ db }) => repo.insertLabel(db, 10, { name: 'bug', color: '#d73a4a', description: '' }, at),
  insertMilestone: ({ db }) =>
    repo.insertMilestone(db, 10, { name: 'v1', description: '', due_date: '2026-12-01', state: 'open' }, at),
  insertSprint: ({ db }) =>
    repo.insertSprint(
      db,
      10,
      { name: 'Sprint 1', goal: '', start_date: '2026-11-23', end_date: '2026-12-04', state: 'planned' },
      at,
    ),
  updateLabelFields: ({ db }) => repo.updateLabelFields(db, 5, { color: '#ededed' }, at),
  updateMilestoneFields: ({ db }) => repo.updateMilestoneFields(db, 5, { state: 'closed' }, at),
  updateSprintFields: ({ db }) => repo.updateSprintFields(db, 5, { state: 'active' }, at),
  deletePlanningRow: ({ db }) => repo.deletePlanningRow(db, 'sprints', 5),
  findOtherActiveSprint: ({ db }) => repo.findOtherActiveSprint(db, 10, 5),
  findSprintNamed: ({ db }) => repo.findSprintNamed(db, 10, 'Sprint 1', 5),
  tasksCarrying: async ({ db }) => {
    await repo.tasksCarrying(db, { kind: 'label', id: 5 });
    await repo.tasksCarrying(db, { kind: 'milestone', id: 5 });
  },
  openTasksOfSprint: ({ db }) => repo.openTasksOfSprint(db, 5),
});
