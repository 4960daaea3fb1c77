import { expect } from 'vitest';
import type { Actor, TestHarness } from './harness.ts';

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
