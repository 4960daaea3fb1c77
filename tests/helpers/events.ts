import { expect } from 'vitest';
import type { TestHarness } from './harness.ts';
import { multipartBody } from './multipart.ts';

/**
 * Causes, through the API as `token`'s account, one of each project event in `projectKey`:
 * a comment posted, edited and deleted; a link made and removed (to `linkTo` when given, a
 * task of another project, else within the project); a file attached; a sprint started and
 * completed; the project renamed; `member` added, given another role and removed; a standup
 * submitted with a blocker about the project's task, then resubmitted without it.
 * Returns the project's first task key.
 */
export async function causeProjectEvents(
  h: TestHarness,
  token: string,
  projectKey: string,
  options: { member: number; linkTo?: string },
): Promise<string> {
  const as = async (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: unknown, status?: number) => {
    const res = await h.request(method, url, { token, body });
    expect(res.status, `${method} ${url}: ${res.text}`).toBe(status ?? (method === 'POST' ? 201 : 200));
    return res.body?.data;
  };
  const task = (await as('POST', `/api/v1/projects/${projectKey}/tasks/`, { title: `First of ${projectKey}` })).key;
  const second = (await as('POST', `/api/v1/projects/${projectKey}/tasks/`, { title: `Second of ${projectKey}` })).key;

  const comment = await as('POST', `/api/v1/tasks/${task}/comments/`, { body: 'First thoughts.' });
  await as('PUT', `/api/v1/comments/${comment.id}/`, { body: 'Second thoughts.' });
  await as('DELETE', `/api/v1/comments/${comment.id}/`, undefined, 204);

  const link = await as('POST', `/api/v1/tasks/${task}/link/`, { type: 'blocks', task: options.linkTo ?? second });
  await as('DELETE', `/api/v1/tasks/${task}/links/${link.id}/`, undefined, 204);

  const upload = multipartBody([{ name: 'file', filename: 'notes.txt', contentType: 'text/plain', data: 'notes' }]);
  const uploaded = await h.request('POST', `/api/v1/tasks/${task}/attachments/`, {
    token,
    body: upload.body,
    headers: upload.headers,
  });
  expect(uploaded.status, uploaded.text).toBe(201);

  const sprint = await as('POST', `/api/v1/projects/${projectKey}/sprints/`, { name: 'Sprint 1', state: 'active' });
  await as('PUT', `/api/v1/sprints/${sprint.id}/`, { state: 'completed' });

  await as('PATCH', `/api/v1/projects/${(await projectId(h, token, projectKey)).id}/`, {
    name: `Renamed ${projectKey}`,
  });

  const membership = await as('POST', '/api/v1/memberships/', {
    project: (await projectId(h, token, projectKey)).id,
    user: options.member,
  });
  await as('PATCH', `/api/v1/memberships/${membership.id}/`, { role: 'viewer' });
  await as('DELETE', `/api/v1/memberships/${membership.id}/`, undefined, 204);

  await as('PUT', '/api/v1/standups/me/', {
    done: 'Reviewed.',
    doing: 'Writing.',
    blockers: [{ text: 'Waiting', task }],
  });
  await as('PUT', '/api/v1/standups/me/', { blockers: [] });
  return task;
}

async function projectId(h: TestHarness, token: string, key: string): Promise<{ id: number }> {
  const list = await h.request('GET', '/api/v1/projects/?limit=100', { token });
  return (list.body.data as Array<{ id: number; key: string }>).find((p) => p.key === key)!;
}
