import { expect } from 'vitest';
import { ALL_SCOPES } from '../../src/identity/scopes.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import type { Actor, BeforeReady } from '../helpers/harness.ts';
import { multipartBody } from '../helpers/multipart.ts';
import { outboxRows } from '../helpers/factory.ts';
import { createWebhookHarness, deliveriesOf, type WebhookHarness } from '../helpers/webhooks.ts';

/** Every string of project B's data carries this marker, so a leak anywhere shows up in a response body. */
export const MARKER = 'SECRETB';

/** The ids and keys an operation's path, query or body can point at. */
export interface Refs {
  project: number;
  projectKey: string;
  task: string;
  task2: string;
  comment: number;
  attachment: number;
  timeEntry: number;
  link: number;
  label: number;
  milestone: number;
  sprint: number;
  status: number;
  status2: number;
  workflow: number;
  transition: number;
  customField: number;
  option: number;
  endpoint: number;
  delivery: number;
  membership: number;
  user: number;
  view: number;
}

/** Ids no row has (still inside the 32-bit range) and keys of no project. */
export const MISSING: Refs = {
  project: 99999999,
  projectKey: 'ZZZ',
  task: 'ZZZ-1',
  task2: 'ZZZ-2',
  comment: 99999999,
  attachment: 99999999,
  timeEntry: 99999999,
  link: 99999999,
  label: 99999999,
  milestone: 99999999,
  sprint: 99999999,
  status: 99999999,
  status2: 99999998,
  workflow: 99999999,
  transition: 99999999,
  customField: 99999999,
  option: 99999999,
  endpoint: 99999999,
  delivery: 99999999,
  membership: 99999999,
  user: 99999999,
  view: 99999999,
};

export interface World {
  h: WebhookHarness;
  /** Workspace admin of org 1, owner of projects AAA and BBB, with an unrestricted token. */
  owner: Actor;
  /** The owner's account with a token restricted to project AAA. */
  restricted: string;
  /** Workspace admin of another organization (with its own project OUT). */
  outsider: Actor;
  /** Member of AAA and BBB, with standup data naming tasks of both. */
  member: Actor;
  /** Another account of org 1 that belongs to no project (a user to add in membership probes). */
  spare: Actor;
  /** Workspace admin of org 1 who is a member of AAA but not of BBB. */
  workspaceAdmin: Actor;
  /** Workspace member of org 1 who is a member of AAA but not of BBB. */
  memberOfA: Actor;
  a: Refs;
  b: Refs;
  /** The owner's endpoint spanning projects (it delivers events of AAA and BBB). */
  orgWide: number;
  /** Deliveries to the organization-wide endpoint, carrying events of both projects. */
  orgWideDeliveries: number[];
  /** Event ids of B's changes: deliveries show ids and types, not payloads, so these are what must not leak there. */
  bEventIds: string[];
}

const STANDUP_DAY = '2026-11-19';
const NEXT_DAY = '2026-11-20';

/**
 * One world for the isolation matrix and the fuzzer: projects AAA (visible to the restricted
 * token) and BBB (not), each holding one object of every kind, created through the API.
 */
export async function buildWorld(beforeReady?: BeforeReady): Promise<World> {
  const h = await createWebhookHarness({ allowPrivate: true, beforeReady });
  h.clock.set(`${STANDUP_DAY}T09:00:00Z`);
  const owner = await h.actor({ role: 'admin' });
  const outsider = await h.actor({ role: 'admin' });
  const member = await h.actor({ org: owner.org, role: 'member' });
  const spare = await h.actor({ org: owner.org, role: 'member' });
  await h.project(outsider, 'OUT', 'Outsider project');

  const call = async (method: 'POST' | 'PUT' | 'GET', url: string, body?: unknown, token = owner.token) => {
    const res = await h.request(method, url, { token, body });
    expect(res.status, `${method} ${url}: ${res.text}`).toBeLessThan(300);
    return res.body.data;
  };

  const side = async (key: string, tag: string): Promise<Refs> => {
    const project = await h.project(owner, key, `${tag} project`);
    await h.addMember(key, member.accountId, 'member');
    const task = await call('POST', `/api/v1/projects/${key}/tasks/`, {
      title: `${tag} task one`,
      description: `${tag} description`,
      assignee: member.accountId,
    });
    const task2 = await call('POST', `/api/v1/projects/${key}/tasks/`, { title: `${tag} task two` });
    const comment = await call('POST', `/api/v1/tasks/${task.key}/comments/`, { body: `${tag} comment` });
    const upload = multipartBody([
      { name: 'file', filename: `${tag}.txt`, contentType: 'text/plain', data: `${tag} file` },
    ]);
    const attachment = await h.request('POST', `/api/v1/tasks/${task.key}/attachments/`, {
      token: owner.token,
      body: upload.body,
      headers: upload.headers,
    });
    expect(attachment.status, attachment.text).toBe(201);
    const timeEntry = await call('POST', `/api/v1/tasks/${task.key}/time-entries/`, {
      minutes: 30,
      date: STANDUP_DAY,
      note: `${tag} note`,
    });
    await call('POST', `/api/v1/tasks/${task.key}/link/`, { task: task2.key, type: 'blocks' });
    const links = await call('GET', `/api/v1/tasks/${task.key}/links/`);
    const label = await call('POST', `/api/v1/projects/${key}/labels/`, { name: `${tag} label`, description: tag });
    const milestone = await call('POST', `/api/v1/projects/${key}/milestones/`, { name: `${tag} milestone` });
    const sprint = await call('POST', `/api/v1/projects/${key}/sprints/`, { name: `${tag} sprint` });
    const workflow = await call('POST', '/api/v1/workflows/', {
      project: project.id,
      name: `${tag} workflow`,
      description: tag,
    });
    const status = await call('POST', '/api/v1/statuses/', {
      project: project.id,
      name: `${tag} status`,
      category: 'todo',
    });
    const statuses = await call('GET', `/api/v1/statuses/?project=${project.id}`);
    const status2 = statuses.find((s: { id: number }) => s.id !== status.id);
    const transition = await call('POST', '/api/v1/transitions/', {
      workflow: workflow.id,
      from_status: status.id,
      to_status: status2.id,
      name: `${tag} move`,
    });
    const field = await call('POST', '/api/v1/custom-fields/', {
      name: `Field of ${key}`,
      type: 'select',
      projects: [project.id],
      options: [{ value: `${key} option` }],
    });
    const endpoint = await call('POST', '/api/v1/webhooks/endpoints/', {
      url: 'https://hooks.test/hook',
      description: tag,
      project: project.id,
    });
    const memberships = await call('GET', `/api/v1/memberships/?project=${project.id}`);
    const view = await call('POST', '/api/v1/views/', {
      name: `${tag} view`,
      query: `text ~ "${tag}"`,
      project: key,
      shared: true,
    });
    return {
      project: project.id,
      projectKey: key,
      task: task.key,
      task2: task2.key,
      comment: comment.id,
      attachment: attachment.body.data.id,
      timeEntry: timeEntry.id,
      link: links[0].id,
      label: label.id,
      milestone: milestone.id,
      sprint: sprint.id,
      status: status.id,
      status2: status2.id,
      workflow: workflow.id,
      transition: transition.id,
      customField: field.id,
      option: field.options[0].id,
      endpoint: endpoint.id,
      delivery: 0,
      membership: memberships.find(
        (m: { user: { id: number } | number }) =>
          (typeof m.user === 'number' ? m.user : m.user.id) === member.accountId,
      ).id,
      user: member.accountId,
      view: view.id,
    };
  };

  const a = await side('AAA', 'Visible');
  const b = await side('BBB', MARKER);
  const restricted = (await h.tokenFor(owner.accountId, ALL_SCOPES, ['AAA'])).token;
  // Unrestricted callers who see A but not B: a workspace admin and a plain member of A only.
  const workspaceAdmin = await h.actor({ org: owner.org, role: 'admin' });
  const memberOfA = await h.actor({ org: owner.org, role: 'member' });
  await h.addMember('AAA', workspaceAdmin.accountId, 'member');
  await h.addMember('AAA', memberOfA.accountId, 'member');
  // An endpoint spanning the organization also receives B's events; the restricted token must not see them through it.
  const orgWide = await call('POST', '/api/v1/webhooks/endpoints/', {
    url: 'https://hooks.test/all',
    description: 'everything',
  });
  await call(
    'PUT',
    '/api/v1/standups/me/',
    {
      done: 'worked',
      blockers: [
        { text: `${MARKER} blocker`, task: b.task },
        { text: 'Visible blocker', task: a.task },
      ],
    },
    member.token,
  );
  await fanOut(h.ctx);
  const deliveries = await deliveriesOf(h);
  a.delivery = deliveries.find((d) => d.endpoint_id === a.endpoint)!.id;
  b.delivery = deliveries.find((d) => d.endpoint_id === b.endpoint)!.id;
  const orgWideDeliveries = deliveries.filter((d) => d.endpoint_id === orgWide.id).map((d) => d.id);
  const bEvents = (await outboxRows(h)).filter((e) => e.project_id === b.project);
  h.clock.set(`${NEXT_DAY}T09:00:00Z`);
  return {
    h,
    owner,
    restricted,
    outsider,
    member,
    spare,
    workspaceAdmin,
    memberOfA,
    a,
    b,
    orgWide: orgWide.id,
    orgWideDeliveries,
    bEventIds: bEvents.map((e) => e.event_id),
  };
}

export interface Probe {
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Where the project-scoped reference sits: in the path (must answer 404) or in the query or body. */
  ref: 'path' | 'query' | 'body' | 'none';
}

/** Resource kind named by the path segment before an `{id}`. */
const ID_KIND: Record<string, keyof Refs> = {
  projects: 'project',
  memberships: 'membership',
  comments: 'comment',
  attachments: 'attachment',
  'time-entries': 'timeEntry',
  links: 'link',
  'custom-fields': 'customField',
  options: 'option',
  statuses: 'status',
  transitions: 'transition',
  workflows: 'workflow',
  labels: 'label',
  milestones: 'milestone',
  sprints: 'sprint',
  endpoints: 'endpoint',
  deliveries: 'delivery',
  views: 'view',
};

/** Path with every parameter bound to `r`; throws for a parameter this table does not know, so new routes get a binding. */
export function bindPath(path: string, r: Refs): string {
  return path.replace(/([^/]+)\/\{([^}]+)\}/g, (_m, segment: string, param: string) => {
    if (param === 'project_key') return `${segment}/${r.projectKey}`;
    if (param === 'task_key') return `${segment}/${r.task}`;
    if (param === 'user_id') return `${segment}/${r.user}`;
    const kind = ID_KIND[segment];
    if (param !== 'id' || !kind) throw new Error(`no binding for {${param}} after ${segment} in ${path}`);
    return `${segment}/${r[kind]}`;
  });
}

/** A valid body (and query) for each operation that needs one, pointing at `r`. */
export function bodyFor(method: string, path: string, r: Refs): { body?: unknown; query?: string; bodyRef?: boolean } {
  const op = `${method} ${path}`;
  const table: Record<string, { body?: unknown; query?: string; bodyRef?: boolean }> = {
    'POST /api/v1/projects/': { body: { name: 'New', key: 'NEWP' } },
    'PUT /api/v1/projects/{id}/': { body: { name: 'Renamed' } },
    'PATCH /api/v1/projects/{id}/': { body: { description: 'x' } },
    'GET /api/v1/memberships/': { query: `project=${r.project}` },
    'POST /api/v1/memberships/': { body: { project: r.project, user: r.user, role: 'viewer' }, bodyRef: true },
    'PUT /api/v1/memberships/{id}/': { body: { role: 'viewer' } },
    'PATCH /api/v1/memberships/{id}/': { body: { role: 'viewer' } },
    'POST /api/v1/projects/{project_key}/tasks/': { body: { title: 'x' } },
    'POST /api/v1/projects/{project_key}/tasks/bulk/': { body: { tasks: [{ title: 'x' }] } },
    'POST /api/v1/projects/{project_key}/tasks/bulk-update/': { body: { tasks: [{ key: r.task, title: 'x' }] } },
    'PUT /api/v1/tasks/{task_key}/': { body: { title: 'x' } },
    'POST /api/v1/tasks/{task_key}/assign/': { body: { assignee: null } },
    'POST /api/v1/tasks/{task_key}/subtasks/': { body: { title: 'x' } },
    'POST /api/v1/tasks/{task_key}/comments/': { body: { body: 'x' } },
    'PUT /api/v1/comments/{id}/': { body: { body: 'x' } },
    'POST /api/v1/tasks/{task_key}/time-entries/': { body: { minutes: 5, date: STANDUP_DAY } },
    'PUT /api/v1/time-entries/{id}/': { body: { minutes: 5 } },
    'POST /api/v1/tasks/{task_key}/link/': { body: { task: r.task2, type: 'relates_to' } },
    'GET /api/v1/custom-fields/': { query: `project=${r.project}` },
    'POST /api/v1/custom-fields/': { body: { name: 'x', type: 'text', projects: [r.project] }, bodyRef: true },
    'PUT /api/v1/custom-fields/{id}/': { body: { description: 'x' } },
    'PUT /api/v1/custom-fields/options/{id}/': { body: { value: 'y' } },
    'POST /api/v1/custom-fields/reorder/': { body: { field: r.customField, options: [r.option] }, bodyRef: true },
    'GET /api/v1/statuses/': { query: `project=${r.project}` },
    'POST /api/v1/statuses/': { body: { project: r.project, name: 'x', category: 'todo' }, bodyRef: true },
    'POST /api/v1/statuses/reorder/': { body: { project: r.project, statuses: [r.status2, r.status] }, bodyRef: true },
    'PUT /api/v1/statuses/{id}/': { body: { name: 'x' } },
    'GET /api/v1/transitions/': { query: `workflow=${r.workflow}` },
    'POST /api/v1/transitions/': {
      body: { workflow: r.workflow, from_status: r.status2, to_status: r.status },
      bodyRef: true,
    },
    'PUT /api/v1/transitions/{id}/': { body: { name: 'x' } },
    'GET /api/v1/workflows/': { query: `project=${r.project}` },
    'POST /api/v1/workflows/': { body: { project: r.project, name: 'x' }, bodyRef: true },
    'PUT /api/v1/workflows/{id}/': { body: { name: 'x' } },
    'POST /api/v1/projects/{project_key}/labels/': { body: { name: 'x' } },
    'PUT /api/v1/labels/{id}/': { body: { name: 'x' } },
    'POST /api/v1/projects/{project_key}/milestones/': { body: { name: 'x' } },
    'PUT /api/v1/milestones/{id}/': { body: { name: 'x' } },
    'POST /api/v1/projects/{project_key}/sprints/': { body: { name: 'x' } },
    'PUT /api/v1/sprints/{id}/': { body: { name: 'x' } },
    'POST /api/v1/webhooks/endpoints/': { body: { url: 'https://hooks.test/new', project: r.project }, bodyRef: true },
    'PATCH /api/v1/webhooks/endpoints/{id}/': { body: { description: 'x' } },
    'GET /api/v1/webhooks/deliveries/': { query: `endpoint=${r.endpoint}` },
    'POST /api/v1/webhooks/verify/': {
      body: { endpoint: r.endpoint, timestamp: '1', signature: 'v1,x', payload: '{}' },
      bodyRef: true,
    },
    'GET /api/v1/standups/': { query: `user=${r.user}` },
    'PUT /api/v1/standups/me/': { body: { blockers: [{ text: 'x', task: r.task }] }, bodyRef: true },
    'PATCH /api/v1/standups/settings/': { body: { timezone: 'UTC' } },
    'GET /api/v1/search/': { query: `q=task&project=${r.projectKey}` },
    'GET /api/v1/views/': { query: `project=${r.projectKey}` },
    'POST /api/v1/views/': { body: { name: 'x', project: r.projectKey }, bodyRef: true },
    'PATCH /api/v1/views/{id}/': { body: { name: 'x' } },
    'POST /api/v1/me/notifications/read/': { body: { all: true } },
    'GET /api/v1/projects/{project_key}/reports/burndown/': { query: 'from=2026-11-01&to=2026-11-07' },
    'GET /api/v1/projects/{project_key}/reports/flow/': { query: 'from=2026-11-01&to=2026-11-07' },
    'GET /api/v1/projects/{project_key}/reports/cycle-time/': { query: 'from=2026-11-01&to=2026-11-07' },
  };
  return table[op] ?? {};
}

export function probeFor(method: string, path: string, r: Refs): Probe {
  const { body, query, bodyRef } = bodyFor(method, path, r);
  const bound = bindPath(path, r);
  // user_id paths name a person, not a project-scoped row: their isolation is checked by the leak scan.
  const pathRef = bound !== path && !path.includes('{user_id}');
  // The one multipart operation gets a well-formed upload, so only the task reference can fail.
  const upload =
    method === 'POST' && path.endsWith('/attachments/')
      ? multipartBody([{ name: 'file', filename: 'a.txt', contentType: 'text/plain', data: 'x' }])
      : undefined;
  return {
    url: query ? `${bound}?${query}` : bound,
    body: upload?.body ?? body,
    headers: upload?.headers,
    ref: pathRef ? 'path' : bodyRef ? 'body' : query ? 'query' : 'none',
  };
}
