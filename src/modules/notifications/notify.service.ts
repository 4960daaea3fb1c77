/**
 * Who is told about a committed change (docs/api/notifications.md): the worker reads each
 * outbox event once, after its transaction committed, and judges it against membership and
 * preferences as they are now. An action's events (one edit's task.updated, task.assigned and
 * task.status_changed) are judged together, so a person gets one notification per task per
 * action, for the first reason of REASON_PRIORITY they want delivered.
 *
 * Nobody hears of their own action, nobody hears of a task of a project they are not an active
 * member of, and a mention of a handle outside the project notifies nobody.
 *
 * Each notification shown in the app is announced with `notification.created`, for its
 * recipient alone, with the origin of the action that caused it (record-notifications.ts).
 */
import type { AppContext } from '../../context.ts';
import { isoFromMs } from '../../clock.ts';
import type { Executor } from '../../db/database.ts';
import { inTransaction } from '../../db/unit-of-work.ts';
import { type ActionOrigin, type EventSource, schedulerOrigin } from '../../events/record-event.ts';
import { emailedLinkBase } from '../../mail/links.ts';
import { recordActivities } from '../activity/activity.repository.ts';
import { fieldLabels, type FieldLabels } from './field-labels.ts';
import { mentionedHandles, newlyMentioned, newlyReferenced, referencedKeys } from './mentions.ts';
import * as repo from './notifications.repository.ts';
import { recordNotifications } from './record-notifications.ts';
import { defaultDelivery, type Delivery, REASON_PRIORITY, type Reason } from './reasons.ts';

interface Envelope {
  type: string;
  source: EventSource;
  organization: ActionOrigin['organization'];
  actor: ActionOrigin['actor'];
  data: Record<string, unknown>;
}

export interface TaskRow {
  id: number;
  key: string;
  title: string;
  project_id: number;
  assignee_id: number | null;
  created_by: number | null;
  organization_id: number;
}

/** One reason one person has to hear of one action on one task. */
interface Wish {
  userId: number;
  reason: Reason;
  text: string;
  body: string;
  commentId: number | null;
  /** Another project the person must see too (the blocking task's, across projects). */
  alsoProjectId?: number;
  /** Context kept with the notification (the digest's check-in link). */
  data?: Record<string, unknown>;
}

/** Handles named in some text, resolved against the organization later, and what naming them tells. */
interface Mention {
  handles: Set<string>;
  reason: Reason;
  text: string;
  body: string;
  commentId: number | null;
}

/**
 * What one action did to one task (or, for a blocker naming no task, to nobody's task), and
 * who wants to hear of it.
 */
interface ActionOnTask {
  organizationId: number;
  /** What caused it, for the notification.created events. */
  origin: ActionOrigin;
  task: TaskRow | null;
  /**
   * The project a notification about no task concerns (a project's webhook endpoint): like a
   * task's, it leaves the inbox, and is not mailed, once its recipient leaves the project.
   */
  projectId?: number | null;
  actor: { id: number; name: string } | null;
  createdAt: string;
  wishes: Wish[];
  mentions: Mention[];
}

/** A task named by key in a description or comment: its activity shows where (`mentioned_in`). */
interface Reference {
  organizationId: number;
  source: TaskRow;
  keys: Set<string>;
  commentId: number | null;
  at: string;
}

const excerpt = (text: string, max = 500) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * The task an event is about, by key: a new `blocks` link is about the task it blocks, a
 * standup blocker about the task it names (none when it names none).
 */
function taskKeyOf(envelope: Envelope): string | undefined {
  const data = envelope.data;
  if (envelope.type === 'task.linked') {
    const link = data.link as { type: string; to: { key: string } };
    return link.type === 'blocks' ? link.to.key : undefined;
  }
  if (envelope.type === 'standup.blocker_raised') return (data.blocker as { task: string | null }).task ?? undefined;
  return (data.task as { key?: string } | undefined)?.key;
}

/** Task keys an event's text names that the worker must know: a link's blocking task, references. */
function otherKeysOf(envelope: Envelope): string[] {
  const data = envelope.data;
  if (envelope.type === 'task.linked') return [(data.link as { from: { key: string } }).from.key];
  return [...referencesOf(envelope)];
}

/** Task keys that an event's description or comment newly names. */
function referencesOf(envelope: Envelope): Set<string> {
  const data = envelope.data;
  switch (envelope.type) {
    case 'task.created':
      return referencedKeys((data.task as { description: string }).description);
    case 'task.updated': {
      const description = (data.changes as Record<string, { from: unknown; to: unknown }>).description;
      return description ? newlyReferenced(String(description.from ?? ''), String(description.to ?? '')) : new Set();
    }
    case 'comment.created':
      return referencedKeys((data.comment as { body: string }).body);
    default:
      return new Set();
  }
}

/** Notifies about up to `limit` events' actions; returns how many events it read. */
export async function notifyAboutEvents(ctx: AppContext, limit = 200): Promise<number> {
  return inTransaction(ctx, async (tx) => {
    const now = tx.clock.nowIso();
    const events = await repo.takeUnnotifiedEvents(tx.db, tx.dialect, now, limit);
    if (events.length === 0) return 0;
    events.sort((a, b) => a.id - b.id);
    const parsed = events.map((e) => ({ ...e, envelope: JSON.parse(e.envelope) as Envelope }));

    const keys = [...new Set(parsed.flatMap((e) => [taskKeyOf(e.envelope) ?? [], otherKeysOf(e.envelope)].flat()))];
    const organizations = [...new Set(parsed.map((e) => e.organization_id))];
    const tasks = new Map(
      (keys.length ? await repo.tasksByKeys(tx.db, organizations, keys) : []).map((t) => [
        `${t.organization_id}:${t.key}`,
        t,
      ]),
    );
    const taskIds = [...new Set([...tasks.values()].map((t) => t.id))];
    const followers = new Map<number, Set<number>>();
    for (const f of taskIds.length ? await repo.followersOfTasks(tx.db, taskIds) : []) {
      followers.set(f.task_id, (followers.get(f.task_id) ?? new Set()).add(f.user_id));
    }
    const unfollowed = new Set(
      (taskIds.length ? await repo.unfollowersOfTasks(tx.db, taskIds) : []).map((u) => `${u.task_id}:${u.user_id}`),
    );
    // The assignee and the creator follow by default, unless they unfollowed; explicit followers add themselves.
    const followersOf = (task: TaskRow) =>
      new Set(
        [
          ...(followers.get(task.id) ?? []),
          ...(task.assignee_id === null ? [] : [task.assignee_id]),
          ...(task.created_by === null ? [] : [task.created_by]),
        ].filter((userId) => !unfollowed.has(`${task.id}:${userId}`)),
      );

    const labels = await fieldLabels(
      tx.db,
      parsed.flatMap((e) => (e.envelope.type === 'task.updated' ? Object.keys(e.envelope.data.changes as object) : [])),
    );

    const actions = new Map<string, ActionOnTask>();
    const references: Reference[] = [];
    for (const event of parsed) {
      const key = taskKeyOf(event.envelope);
      const task = key === undefined ? undefined : tasks.get(`${event.organization_id}:${key}`);
      const actor = event.actor_id ? { id: event.actor_id, name: event.envelope.actor.name } : null;
      const taskOf = (other: string) => tasks.get(`${event.organization_id}:${other}`);
      if (task) {
        const named = referencesOf(event.envelope);
        if (named.size)
          references.push({
            organizationId: event.organization_id,
            source: task,
            keys: named,
            commentId:
              event.envelope.type === 'comment.created' ? (event.envelope.data.comment as { id: number }).id : null,
            at: now,
          });
      }
      // A blocker naming no task concerns the organization: only the people it names hear of it.
      const aboutNoTask = event.envelope.type === 'standup.blocker_raised' && key === undefined;
      if (!task && !aboutNoTask) continue;
      const actionKey = `${event.correlation_id}:${task?.id ?? 'none'}`;
      const action = actions.get(actionKey) ?? {
        organizationId: event.organization_id,
        origin: {
          organization: event.envelope.organization,
          actor: event.envelope.actor,
          source: event.envelope.source,
          correlationId: event.correlation_id,
        },
        task: task ?? null,
        actor,
        createdAt: now,
        wishes: [],
        mentions: [],
      };
      actions.set(actionKey, action);
      describeEvent(event.envelope, action, task ? followersOf(task) : new Set(), taskOf, labels);
    }
    if (references.length) await recordReferences(tx.db, references, tasks);
    if (actions.size === 0) return events.length;

    await resolveMentions(tx.db, actions);
    await store(tx.db, await decide(ctx, tx.db, [...actions.values()]), now);
    return events.length;
  });
}

/**
 * Each task named in another's description or comment gets a `mentioned_in` activity row
 * (docs/api/tasks.md, "Activity"), shown only to readers who see the naming task. A task
 * naming itself records nothing.
 */
async function recordReferences(db: Executor, references: Reference[], tasks: Map<string, TaskRow>): Promise<void> {
  const rows = references.flatMap((reference) =>
    [...reference.keys].flatMap((key) => {
      const named = tasks.get(`${reference.organizationId}:${key}`);
      if (!named || named.id === reference.source.id) return [];
      return [
        {
          task_id: named.id,
          // Nobody's own work: the row must not make the writer's standup list this task.
          actor_id: null,
          action: 'mentioned_in',
          field: null,
          from_value: null,
          to_value: JSON.stringify({ task: reference.source.key, comment: reference.commentId }),
          created_at: reference.at,
          source_task_id: reference.source.id,
        },
      ];
    }),
  );
  await recordActivities(db, rows);
}

/** Adds what one event asks for to its action. */
function describeEvent(
  envelope: Envelope,
  action: ActionOnTask,
  followers: Set<number>,
  taskOf: (key: string) => TaskRow | undefined,
  labels: FieldLabels,
): void {
  const data = envelope.data;
  const who = action.actor?.name ?? 'Someone';
  const { task } = action;
  if (!task) {
    // A standup blocker that names no task: the people it names hear of it.
    const blocker = data.blocker as { text: string };
    action.mentions.push({
      handles: mentionedHandles(blocker.text),
      reason: 'blocked',
      text: `${who} named you in a standup blocker`,
      body: excerpt(blocker.text),
      commentId: null,
    });
    return;
  }
  const named = `${task.key} “${task.title}”`;
  const wish = (
    userIds: Iterable<number>,
    reason: Reason,
    text: string,
    body = '',
    commentId: number | null = null,
  ) => {
    for (const userId of userIds) action.wishes.push({ userId, reason, text, body, commentId });
  };
  switch (envelope.type) {
    case 'task.created': {
      const created = data.task as { assignee: number | null; description: string };
      if (created.assignee !== null) wish([created.assignee], 'assigned', `${who} assigned ${named} to you`);
      action.mentions.push({
        handles: mentionedHandles(created.description),
        reason: 'mentioned',
        text: `${who} mentioned you in ${named}`,
        body: excerpt(created.description),
        commentId: null,
      });
      break;
    }
    case 'task.assigned': {
      const to = data.to as number | null;
      if (to !== null) wish([to], 'assigned', `${who} assigned ${named} to you`);
      break;
    }
    case 'task.status_changed':
      wish(followers, 'status_changed', `${who} moved ${named} from ${String(data.from)} to ${String(data.to)}`);
      break;
    case 'task.updated': {
      const changes = data.changes as Record<string, { from: unknown; to: unknown }>;
      const description = changes.description;
      if (description) {
        action.mentions.push({
          handles: newlyMentioned(String(description.from ?? ''), String(description.to ?? '')),
          reason: 'mentioned',
          text: `${who} mentioned you in ${named}`,
          body: excerpt(String(description.to ?? '')),
          commentId: null,
        });
      }
      const fields = Object.keys(changes).filter((field) => field !== 'status');
      if (fields.length === 0) break;
      // Whoever the task was taken from hears of it too.
      const previous = changes.assignee?.from;
      const audience = new Set(followers);
      if (typeof previous === 'number') audience.add(previous);
      wish(
        audience,
        'updated',
        `${who} changed ${fields.map(labels.name).join(', ')} of ${named}`,
        fields
          .map((field) => {
            const { from, to } = changes[field]!;
            const shown = (value: unknown) => JSON.stringify(labels.value(field, value));
            return `${labels.name(field)}: ${shown(from)} → ${shown(to)}`;
          })
          .join('\n'),
      );
      break;
    }
    case 'comment.created': {
      const comment = data.comment as { id: number; body: string };
      wish(followers, 'commented', `${who} commented on ${named}`, excerpt(comment.body), comment.id);
      action.mentions.push({
        handles: mentionedHandles(comment.body),
        reason: 'mentioned',
        text: `${who} mentioned you in a comment on ${named}`,
        body: excerpt(comment.body),
        commentId: comment.id,
      });
      break;
    }
    case 'task.linked': {
      // Only a new `blocks` link reaches here: the assignee of the task it blocks hears of it,
      // if they also see the blocking task.
      const from = (data.link as { from: { key: string } }).from;
      const blocking = taskOf(from.key);
      if (task.assignee_id !== null && blocking)
        action.wishes.push({
          userId: task.assignee_id,
          reason: 'blocked',
          text: `${who} marked ${named} as blocked by ${blocking.key} “${blocking.title}”`,
          body: '',
          commentId: null,
          alsoProjectId: blocking.project_id,
        });
      break;
    }
    case 'standup.blocker_raised': {
      const blocker = data.blocker as { text: string };
      if (task.assignee_id !== null)
        wish([task.assignee_id], 'blocked', `${who} declared ${named} blocked in a standup`, excerpt(blocker.text));
      action.mentions.push({
        handles: mentionedHandles(blocker.text),
        reason: 'blocked',
        text: `${who} named you in a standup blocker on ${named}`,
        body: excerpt(blocker.text),
        commentId: null,
      });
      break;
    }
    case 'task.due_soon':
      if (task.assignee_id !== null)
        wish([task.assignee_id], 'due_soon', `${named} is due on ${String(data.due_date)}`);
      break;
  }
}

/** Turns each action's mentioned handles into wishes of the accounts holding them. */
async function resolveMentions(db: Executor, actions: Map<string, ActionOnTask>): Promise<void> {
  const byOrganization = new Map<number, Set<string>>();
  for (const action of actions.values()) {
    for (const mention of action.mentions) {
      const handles = byOrganization.get(action.organizationId) ?? new Set<string>();
      for (const handle of mention.handles) handles.add(handle);
      byOrganization.set(action.organizationId, handles);
    }
  }
  const accounts = new Map<string, number>();
  for (const [organizationId, handles] of byOrganization) {
    if (handles.size === 0) continue;
    for (const account of await repo.accountsByHandles(db, organizationId, [...handles]))
      accounts.set(`${organizationId}:${account.handle}`, account.id);
  }
  for (const action of actions.values()) {
    for (const mention of action.mentions) {
      for (const handle of mention.handles) {
        const userId = accounts.get(`${action.organizationId}:${handle}`);
        if (userId === undefined) continue;
        action.wishes.push({
          userId,
          reason: mention.reason,
          text: mention.text,
          body: mention.body,
          commentId: mention.commentId,
        });
      }
    }
  }
}

/** A notification to insert, and the action it tells of. */
interface Decided {
  row: repo.NewNotification;
  action: ActionOnTask;
}

/** Writes the decided notifications (record-notifications.ts announces them). */
async function store(db: Executor, decided: Decided[], now: string): Promise<void> {
  await recordNotifications(
    db,
    decided.map(({ row, action }) => ({
      row,
      origin: action.origin,
      actor: action.actor,
      task: action.task && { key: action.task.key, title: action.task.title },
    })),
    now,
  );
}

/**
 * Keeps the wishes of people who may hear of the action and want to, one per person per
 * action; the rows to insert. About a task: active members of its project (and of the other
 * project a wish names). About no task: active accounts of the organization.
 */
async function decide(ctx: AppContext, db: Executor, actions: ActionOnTask[]): Promise<Decided[]> {
  const userIds = [...new Set(actions.flatMap((a) => a.wishes.map((w) => w.userId)))];
  if (userIds.length === 0) return [];
  const projectIds = [
    ...new Set(
      actions.flatMap((a) => [
        ...(a.task ? [a.task.project_id] : []),
        ...a.wishes.flatMap((w) => (w.alsoProjectId === undefined ? [] : [w.alsoProjectId])),
      ]),
    ),
  ];
  // Who may hear of what: `user:project` for members, `user:org:organization` for accounts.
  const audience = new Map<string, string | null>();
  if (projectIds.length)
    for (const m of await repo.activeMembersAmong(db, userIds, projectIds))
      audience.set(`${m.user_id}:${m.project_id}`, m.email);
  const organizations = [...new Set(actions.filter((a) => a.task === null).map((a) => a.organizationId))];
  if (organizations.length)
    for (const account of await repo.activeAccountsAmong(db, userIds, organizations))
      audience.set(`${account.id}:org:${account.organization_id}`, account.email);
  const place = (action: ActionOnTask, userId: number) =>
    action.task ? `${userId}:${action.task.project_id}` : `${userId}:org:${action.organizationId}`;

  const chosen = new Map<string, Delivery>();
  for (const p of await repo.preferencesOf(db, userIds))
    chosen.set(`${p.user_id}:${p.reason}`, { in_app: p.in_app === 1, email: p.email === 1 });
  const deliveryOf = (userId: number, reason: Reason) => chosen.get(`${userId}:${reason}`) ?? defaultDelivery(reason);

  // E-mail needs a server to send through and the address people reach the service at (for its links).
  const mails = ctx.config.smtp.url !== null && emailedLinkBase(ctx) !== null;
  const waiting = new Map<string, string>();
  if (mails) {
    for (const w of await repo.waitingEmails(db, userIds))
      if (w.due_at) waiting.set(`${w.user_id}:${w.reason}`, w.due_at);
  }
  const dueAt = isoFromMs(ctx.clock.nowMs() + ctx.config.notifications.emailDelaySeconds * 1000);

  const rows: Decided[] = [];
  for (const action of actions) {
    const byUser = new Map<number, Wish[]>();
    for (const wish of action.wishes) {
      if (wish.userId === action.actor?.id) continue;
      if (!audience.has(place(action, wish.userId))) continue;
      if (wish.alsoProjectId !== undefined && !audience.has(`${wish.userId}:${wish.alsoProjectId}`)) continue;
      byUser.set(wish.userId, [...(byUser.get(wish.userId) ?? []), wish]);
    }
    for (const [userId, wishes] of byUser) {
      const wish = REASON_PRIORITY.flatMap((reason) => wishes.filter((w) => w.reason === reason)).find((w) => {
        const delivery = deliveryOf(userId, w.reason);
        return delivery.in_app || delivery.email;
      });
      if (!wish) continue;
      const delivery = deliveryOf(userId, wish.reason);
      const emailed = mails && delivery.email && audience.get(place(action, userId)) != null;
      let emailDueAt: string | null = null;
      if (emailed) {
        const joined = waiting.get(`${userId}:${wish.reason}`);
        emailDueAt = joined ?? dueAt;
        waiting.set(`${userId}:${wish.reason}`, emailDueAt);
      }
      rows.push({
        action,
        row: {
          organization_id: action.organizationId,
          user_id: userId,
          kind: wish.reason,
          reason: wish.reason,
          subject: wish.text,
          body: wish.body,
          data: JSON.stringify(wish.data ?? {}),
          created_at: action.createdAt,
          emailed_at: null,
          email_error: null,
          actor_id: action.actor?.id ?? null,
          project_id: action.task?.project_id ?? action.projectId ?? null,
          task_id: action.task?.id ?? null,
          comment_id: wish.commentId,
          in_app: delivery.in_app ? 1 : 0,
          email_due_at: emailDueAt,
        },
      });
    }
  }
  return rows;
}

/**
 * Notifies one person about one task for a reason the scheduler found (`overdue`), in the
 * caller's transaction, with the same checks as any other: a member of the project, wanting
 * the reason delivered.
 */
export async function notifyAboutTask(
  ctx: AppContext,
  db: Executor,
  origin: ActionOrigin,
  task: TaskRow,
  userId: number,
  reason: Reason,
  text: string,
): Promise<void> {
  const decided = await decide(ctx, db, [
    {
      organizationId: task.organization_id,
      origin,
      task,
      actor: null,
      createdAt: ctx.clock.nowIso(),
      wishes: [{ userId, reason, text, body: '', commentId: null }],
      mentions: [],
    },
  ]);
  await store(db, decided, ctx.clock.nowIso());
}

/**
 * Notifies people about something that concerns no task (their standup digest, a webhook
 * endpoint disabled), in the caller's transaction: active accounts of the organization, each
 * wanting the reason delivered. The caller has chosen who may hear of it. Returns how many
 * notifications were recorded.
 */
export async function notifyAccounts(
  ctx: AppContext,
  db: Executor,
  notice: {
    organization: ActionOrigin['organization'];
    userIds: number[];
    reason: Reason;
    text: string;
    body: string;
    data: Record<string, unknown>;
    projectId?: number | null;
  },
): Promise<number> {
  const decided = await decide(ctx, db, [
    {
      organizationId: notice.organization.id,
      origin: schedulerOrigin(notice.organization),
      task: null,
      projectId: notice.projectId ?? null,
      actor: null,
      createdAt: ctx.clock.nowIso(),
      wishes: notice.userIds.map((userId) => ({
        userId,
        reason: notice.reason,
        text: notice.text,
        body: notice.body,
        commentId: null,
        data: notice.data,
      })),
      mentions: [],
    },
  ]);
  await store(db, decided, ctx.clock.nowIso());
  return decided.length;
}
