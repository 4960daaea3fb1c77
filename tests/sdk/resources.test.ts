import fs from 'node:fs';
import path from 'node:path';
import { createClient, isApiError, RESOURCES, type TaskTrackerClient } from '@tasktracker/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { methodOf, resourceOf, resourcesModule, RESOURCES_FILE } from '../../scripts/write-client-resources.ts';
import type { Actor, TestHarness } from '../helpers/harness.ts';
import { listeningHarness } from '../helpers/listening.ts';

const root = path.resolve(import.meta.dirname, '../..');
const document = JSON.parse(fs.readFileSync(path.join(root, 'docs/openapi.json'), 'utf8')) as {
  paths: Record<
    string,
    Record<
      string,
      { operationId: string; tags: string[]; responses: Record<string, { content?: Record<string, unknown> }> }
    >
  >;
};

describe('the resource layer is generated from the operation ids', () => {
  it('packages/client/src/generated/resources.ts is what the document gives (`npm run openapi` rewrites it)', () => {
    expect(fs.readFileSync(RESOURCES_FILE, 'utf8') === resourcesModule(document)).toBe(true);
  });

  it('names every operation of the document exactly once, by its tag and operation id', () => {
    const named = Object.entries(RESOURCES).flatMap(([resource, methods]) =>
      Object.entries(methods).map(([name, op]) => ({ resource, name, ...op })),
    );
    // The event stream is iterated (tt.events.stream()), not called.
    const operations = Object.entries(document.paths)
      .flatMap(([url, ops]) => Object.entries(ops).map(([method, op]) => ({ method, url, ...op })))
      .filter((op) => !('text/event-stream' in (op.responses['200']?.content ?? {})));
    expect(named.map((n) => n.operationId).sort()).toEqual(operations.map((o) => o.operationId).sort());
    for (const op of operations) {
      const entry = named.find((n) => n.operationId === op.operationId)!;
      expect([entry.resource, entry.name, entry.method, entry.path]).toEqual([
        resourceOf(op.tags[0]!),
        methodOf(op.operationId, op.tags[0]!),
        op.method,
        op.url,
      ]);
    }
  });

  it('drops the noun of the tag after the verb, and keeps any other id whole', () => {
    expect(
      [
        ['listTasks', 'Tasks'],
        ['createTask', 'Tasks'],
        ['bulkCreateTasks', 'Tasks'],
        ['listTaskActivities', 'Tasks'],
        ['listSubtasks', 'Tasks'],
        ['listTimeEntries', 'Time entries'],
        ['updateCustomFieldOption', 'Custom fields'],
        ['replayWebhookDelivery', 'Webhooks'],
        ['getMyStandup', 'Standups'],
        ['deleteTaskLink', 'Links'],
      ].map(([id, tag]) => `${resourceOf(tag!)}.${methodOf(id!, tag!)}`),
    ).toEqual([
      'tasks.list',
      'tasks.create',
      'tasks.bulkCreate',
      'tasks.listActivities',
      'tasks.listSubtasks',
      'timeEntries.list',
      'customFields.updateOption',
      'webhooks.replayDelivery',
      'standups.getMyStandup',
      'links.deleteTaskLink',
    ]);
  });
});

// Never run: compiled by `npm run typecheck`, these must be type errors.
export function mistakesTheTypesRefuse(tt: TaskTrackerClient): void {
  // @ts-expect-error the body of a create is required
  void tt.tasks.create('RES');
  // @ts-expect-error a task has no field `name`
  void tt.tasks.create('RES', { name: 'x' });
  // @ts-expect-error the path parameter is a string
  void tt.tasks.get(12);
  // @ts-expect-error `status` filters by name, `done` is no query parameter
  void tt.tasks.list('RES', { done: true });
}

describe('tt.tasks.create(...), tt.tasks.list(...) against the real server', () => {
  let h: TestHarness & { baseUrl: string };
  let actor: Actor;
  let tt: TaskTrackerClient;
  const sent: string[] = [];

  beforeAll(async () => {
    h = await listeningHarness();
    actor = await h.actor();
    tt = createClient({
      baseUrl: h.baseUrl,
      token: actor.token,
      fetch: (request) => (
        sent.push(`${request.method} ${new URL(request.url).pathname}${new URL(request.url).search}`),
        fetch(request)
      ),
    });
  });
  afterAll(() => h.close());

  it('path parameters in order, then the body or the query, then the options', async () => {
    const project = await tt.projects.create({ name: 'Resources', key: 'RES' });
    expect(project.data.key).toBe('RES');

    const created = await tt.tasks.create('RES', { title: 'First' }, { upstreamId: 'row-1' });
    const again = await tt.tasks.create('RES', { title: 'First' }, { upstreamId: 'row-1' });
    expect(again.response.headers.get('idempotent-replayed')).toBe('true');
    expect(again.data.key).toBe(created.data.key);
    expect(sent.at(-1)).toBe('POST /api/v1/projects/RES/tasks/');

    const read = await tt.tasks.get(created.data.key);
    expect(read.etag).toBe('"v1"');
    const updated = await tt.tasks.update(created.data.key, { title: 'First, renamed' }, { ifMatch: read.etag! });
    expect(updated.data.title).toBe('First, renamed');
    const stale = await tt.tasks
      .update(created.data.key, { title: 'lost' }, { ifMatch: read.etag! })
      .catch((error: unknown) => error);
    expect(isApiError(stale, 'PRECONDITION_FAILED')).toBe(true);

    const comment = await tt.comments.create(created.data.key, { body: 'Hello' });
    expect((await tt.comments.get(comment.data.id)).data.body).toBe('Hello');
    await tt.tasks.follow(created.data.key);
    expect(sent.at(-1)).toBe(`POST /api/v1/tasks/${created.data.key}/follow/`);
    await tt.comments.delete(comment.data.id);
    expect(sent.at(-1)).toBe(`DELETE /api/v1/comments/${comment.data.id}/`);
  });

  it('a list call is its first page when awaited, and every item (following cursors) when iterated', async () => {
    await tt.tasks.bulkCreate('RES', { tasks: ['Second', 'Third', 'Fourth', 'Fifth'].map((title) => ({ title })) });
    const page = await tt.tasks.list('RES', { limit: 2 });
    expect(page.data.map((t) => t.title)).toEqual(['First, renamed', 'Second']);
    expect(page.body.pagination).toMatchObject({ count: 5 });

    sent.length = 0;
    const titles: string[] = [];
    for await (const task of tt.tasks.list('RES', { limit: 2 })) titles.push(task.title);
    expect(titles).toEqual(['First, renamed', 'Second', 'Third', 'Fourth', 'Fifth']);
    expect(sent).toHaveLength(3);
    expect(sent.every((s) => s.startsWith('GET /api/v1/projects/RES/tasks/?') && s.includes('cursor='))).toBe(true);

    const open: string[] = [];
    for await (const task of tt.tasks.list('RES', { status: 'Done' })) open.push(task.key);
    expect(open).toEqual([]);
  });
});
