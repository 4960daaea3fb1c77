import type { TestHarness } from '../helpers/harness.ts';
import { replaceTasks, type TaskSpec, type World } from './world.ts';

/**
 * Six tasks of known shape for the API tests of the query language, written in this order (the
 * order of their ids): QA-1, QA-2, QA-3, QH-1 (a project the caller cannot see), QB-1, QB-2.
 * The clock stands at Saturday 2026-11-21 09:00 UTC: the week runs from Monday 11-16 to Sunday 11-22.
 */
export const NOW = '2026-11-21T09:00:00Z';

export async function writeFixture(h: TestHarness, world: World): Promise<void> {
  const option = (project: 'QA' | 'QB' | 'QH', kind: 'statuses' | 'types' | 'priorities', name: string) =>
    world.options[project]![kind].find((o) => o.name === name)!.id;
  const label = (project: string, name: string) => world.labels[project]!.find((l) => l.name === name)!.id;
  const me = world.caller.accountId;
  const { alice, bob } = world.people;
  const base = (project: 'QA' | 'QB' | 'QH'): TaskSpec => ({
    project,
    title: '',
    description: '',
    status: option(project, 'statuses', 'To Do'),
    type: option(project, 'types', 'Task'),
    priority: option(project, 'priorities', 'Medium'),
    assignee: null,
    creator: null,
    labels: [],
    milestone: null,
    sprint: null,
    parent: null,
    due: null,
    start: null,
    estimate: null,
    created: '2026-11-01T00:00:00.000000Z',
    updated: '2026-11-01T00:00:00.000000Z',
    followers: [],
    blockers: [],
    custom: {},
  });
  const fields = world.fields;
  await replaceTasks(h, world, [
    {
      ...base('QA'),
      title: 'Login timeout on mobile',
      description: 'Users see a timeout after login',
      type: option('QA', 'types', 'Bug'),
      priority: option('QA', 'priorities', 'High'),
      assignee: me,
      creator: alice,
      labels: [label('QA', 'bug')],
      milestone: world.milestones.QA![0]!,
      sprint: world.sprints.QA![0]!,
      due: '2026-11-22',
      created: '2026-11-20T10:00:00.000000Z',
      updated: '2026-11-20T10:00:00.000000Z',
      followers: [bob],
      custom: {
        Points: 3,
        Area: fields.Area!.options[0],
        Tags: fields.Tags!.options.slice(0, 2),
        Note: 'hello',
        Launch: '2026-11-25',
        Flag: true,
        Reviewer: me,
      },
    },
    {
      ...base('QA'),
      title: 'Crash when saving',
      status: option('QA', 'statuses', 'In Progress'),
      priority: option('QA', 'priorities', 'Low'),
      assignee: alice,
      creator: me,
      labels: [label('QA', 'Feature'), label('QA', 'ui')],
      sprint: world.sprints.QA![1]!,
      parent: 0,
      created: '2026-11-10T08:00:00.000000Z',
      updated: '2026-11-12T08:00:00.000000Z',
      blockers: [0],
    },
    {
      ...base('QA'),
      title: 'Old done thing',
      description: 'Finished long ago',
      status: option('QA', 'statuses', 'Done'),
      type: option('QA', 'types', 'Epic'),
      priority: option('QA', 'priorities', 'Urgent'),
      due: '2026-11-01',
      created: '2026-10-01T00:00:00.000000Z',
      updated: '2026-10-02T00:00:00.000000Z',
    },
    {
      ...base('QH'),
      title: 'Secret login work',
      assignee: me,
      labels: [label('QH', 'secret'), label('QH', 'bug')],
      due: '2026-11-22',
      created: '2026-11-21T07:00:00.000000Z',
      updated: '2026-11-21T07:00:00.000000Z',
      custom: { Hidden: 'x' },
    },
    {
      ...base('QB'),
      title: 'Timeouts in sync job',
      description: 'connection timeouts',
      status: option('QB', 'statuses', 'Blocked'),
      type: option('QB', 'types', 'Bug'),
      priority: option('QB', 'priorities', 'High'),
      assignee: me,
      creator: bob,
      labels: [label('QB', 'Bug')],
      milestone: world.milestones.QB![1]!,
      sprint: world.sprints.QB![1]!,
      due: '2026-12-05',
      created: '2026-11-21T08:00:00.000000Z',
      updated: '2026-11-21T08:30:00.000000Z',
      followers: [me],
      blockers: [2],
      custom: { Points: 8, Area: fields.Area!.options[1], Tags: [fields.Tags!.options[2]] },
    },
    {
      ...base('QB'),
      title: 'Backend cleanup',
      description: 'Remove the old tables',
      status: option('QB', 'statuses', 'Done'),
      assignee: bob,
      labels: [label('QB', 'backend')],
      sprint: world.sprints.QB![0]!,
      due: '2026-11-16',
      created: '2026-11-15T12:00:00.000000Z',
      updated: '2026-11-21T08:59:00.000000Z',
      blockers: [3],
    },
  ]);
}
