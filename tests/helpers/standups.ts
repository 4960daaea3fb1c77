import { expect } from 'vitest';
import type { Actor, TestHarness } from './harness.ts';

/**
 * A fresh organization for one standup scenario: `lead` (workspace admin) owns projects WEB and
 * OPS; every other person is a member of WEB only unless listed in `ops`.
 */
export async function team<N extends string>(h: TestHarness, names: N[], options: { ops?: N[] } = {}): Promise<{ lead: Actor } & Record<N, Actor>> {
  const lead = await h.actor({ role: 'admin' });
  await h.project(lead, 'WEB');
  await h.project(lead, 'OPS');
  const people = {} as Record<N, Actor>;
  for (const name of names) {
    const person = await h.actor({ org: lead.org, role: 'member' });
    await h.addMember('WEB', person.accountId);
    people[name] = person;
  }
  for (const name of options.ops ?? []) await h.addMember('OPS', people[name]!.accountId);
  return { ...people, lead };
}

/** Creates a task through the API as `actor` and optionally moves it along the default workflow. */
export async function task(h: TestHarness, actor: Actor, projectKey: string, title: string, options: { assignee?: number; path?: string[] } = {}) {
  const res = await h.request('POST', `/api/v1/projects/${projectKey}/tasks/`, {
    token: actor.token,
    body: { title, ...(options.assignee !== undefined ? { assignee: options.assignee } : {}) },
  });
  expect(res.status, res.text).toBe(201);
  for (const status of options.path ?? []) await update(h, actor, res.body.data.key, { status });
  return res.body.data.key as string;
}

export async function update(h: TestHarness, actor: Actor, key: string, body: Record<string, unknown>) {
  const res = await h.request('PUT', `/api/v1/tasks/${key}/`, { token: actor.token, body });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

export async function submit(h: TestHarness, actor: Actor, body: Record<string, unknown> = {}) {
  const res = await h.request('PUT', '/api/v1/standups/me/', { token: actor.token, body });
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

export async function setTimezone(h: TestHarness, admin: Actor, timezone: string) {
  const res = await h.request('PATCH', '/api/v1/standups/settings/', { token: admin.token, body: { timezone } });
  expect(res.status, res.text).toBe(200);
}

export const TIMESTAMP = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
