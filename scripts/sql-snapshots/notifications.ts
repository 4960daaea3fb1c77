import * as repo from '../../src/modules/notifications/notifications.repository.ts';
import { snapshotsOf } from './record.ts';
import { firstPage } from './samples.ts';

const now = '2026-11-21T09:00:00.000Z';
const filter = { userId: 3, projects: null, unread: false, reasons: null };
const narrowed = { userId: 3, projects: [10], unread: true, reasons: ['assigned', 'mentioned'] };

export default snapshotsOf('modules/notifications/notifications.repository.ts', repo, {
  takeUnnotifiedEvents: ({ db, dialect }) => repo.takeUnnotifiedEvents(db, dialect, now, 200),
  tasksByKeys: ({ db }) => repo.tasksByKeys(db, [1], ['WEB-1', 'WEB-2']),
  followersOfTasks: ({ db }) => repo.followersOfTasks(db, [5, 6]),
  unfollowersOfTasks: ({ db }) => repo.unfollowersOfTasks(db, [5, 6]),
  accountsByHandles: ({ db }) => repo.accountsByHandles(db, 1, ['alice', 'bob']),
  activeMembersAmong: ({ db }) => repo.activeMembersAmong(db, [3, 4], [10]),
  activeAccountsAmong: ({ db }) => repo.activeAccountsAmong(db, [3, 4], [1]),
  customFieldsByIds: ({ db }) => repo.customFieldsByIds(db, [7, 9]),
  preferencesOf: ({ db }) => repo.preferencesOf(db, [3, 4]),
  waitingEmails: ({ db }) => repo.waitingEmails(db, [3, 4]),
  insertNotifications: ({ db }) =>
    repo.insertNotifications(db, [
      {
        organization_id: 1,
        user_id: 3,
        kind: 'assigned',
        reason: 'assigned',
        subject: 'Ann assigned WEB-1 to you',
        body: '',
        data: '{}',
        created_at: now,
        actor_id: 4,
        project_id: 10,
        task_id: 5,
        comment_id: null,
        in_app: 1,
        email_due_at: null,
      },
    ]),
  inboxPage: ({ db }) => repo.inboxPage(db, narrowed, firstPage),
  markRead: ({ db }) => repo.markRead(db, filter, [12, 13], now),
  claimDueEmails: ({ db }) => repo.claimDueEmails(db, now, '2026-11-21T09:10:00.000Z', 200),
  markEmailed: ({ db }) => repo.markEmailed(db, [12, 13], now),
  markEmailFailed: ({ db }) => repo.markEmailFailed(db, [12], 'connection refused', '2026-11-21T09:01:00.000Z'),
  dropEmails: ({ db }) => repo.dropEmails(db, [12], 'not sent: the recipient no longer sees the task'),
  upsertPreferences: ({ db }) => repo.upsertPreferences(db, [{ user_id: 3, reason: 'assigned', in_app: 1, email: 0 }]),
});
