import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { addLabel, createTask } from '../helpers/factory.ts';

interface Card {
  key: string;
  version: number;
  [field: string]: unknown;
}
interface Column {
  status: { id: number; name: string; category: string; position: number };
  count: number;
  cards: Card[];
  next_cursor: string;
  has_more: boolean;
}

describe('the board: counts per status and per-column pages', () => {
  let h: TestHarness;
  let admin: Actor;
  let dev: Actor;

  const board = async (query = '', token = admin.token) => {
    const res = await h.request('GET', `/api/v1/projects/BRD/board/${query}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.data.columns as Column[];
  };
  const summary = (columns: Column[]) =>
    columns.map((c) => [c.status.name, c.count, c.cards.map((card) => card.key), c.has_more]);

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    dev = await h.actor({ org: admin.org, role: 'member' });
    await h.project(admin, 'BRD');
    await h.addMember('BRD', dev.accountId, 'member');
    await addLabel(h, 'BRD', 'ui');
    // BRD-1 .. BRD-7 in To Do; then 3 and 5 move on.
    for (const [i, title] of [
      'Login page',
      'Logout button',
      'Footer links',
      'Login timeout',
      'Pricing',
      'Footer',
      'Help',
    ].entries())
      await createTask(h, admin, 'BRD', {
        title,
        ...(i % 2 === 0 ? { assignee: dev.accountId, labels: ['ui'] } : {}),
      });
    await h.request('PUT', '/api/v1/tasks/BRD-3/', { token: admin.token, body: { status: 'In Progress' } });
    await h.request('PUT', '/api/v1/tasks/BRD-5/', { token: admin.token, body: { status: 'In Progress' } });
    await h.project(admin, 'NOISE');
    await createTask(h, admin, 'NOISE', { title: 'Login elsewhere' });
  });
  afterAll(() => h.close());

  it('answers every status in board order with its count and first cards, oldest first', async () => {
    const columns = await board();
    expect(summary(columns)).toEqual([
      ['To Do', 5, ['BRD-1', 'BRD-2', 'BRD-4', 'BRD-6', 'BRD-7'], false],
      ['In Progress', 2, ['BRD-3', 'BRD-5'], false],
      ['In Review', 0, [], false],
      ['Done', 0, [], false],
    ]);
    expect(columns.map((c) => c.status.position)).toEqual(
      [...columns.map((c) => c.status.position)].sort((a, b) => a - b),
    );
    expect(columns[0]!.status.category).toBe('todo');
  });

  it('cards carry what a card shows and the version of the ETag, not the description', async () => {
    const [todo] = await board();
    const card = todo!.cards[0]!;
    expect(Object.keys(card).sort()).toEqual(
      [
        'assignee',
        'due_date',
        'key',
        'labels',
        'milestone',
        'parent',
        'priority',
        'project',
        'sprint',
        'status',
        'status_category',
        'task_type',
        'title',
        'updated_at',
        'version',
      ].sort(),
    );
    expect(card).toMatchObject({ key: 'BRD-1', title: 'Login page', labels: ['ui'], assignee: dev.accountId });
    const read = await h.request('GET', '/api/v1/tasks/BRD-3/', { token: admin.token });
    const inProgress = (await board())[1]!;
    expect(read.headers.etag).toBe(`"v${inProgress.cards[0]!.version}"`);
    expect(inProgress.cards[0]!.version).toBeGreaterThan(1);
  });

  it('pages one column with limit, status and cursor until it ends', async () => {
    const first = await board('?limit=2');
    expect(summary(first)[0]).toEqual(['To Do', 5, ['BRD-1', 'BRD-2'], true]);
    expect(summary(first)[1]).toEqual(['In Progress', 2, ['BRD-3', 'BRD-5'], false]);
    const seen = [...first[0]!.cards.map((c) => c.key)];
    let cursor = first[0]!.next_cursor;
    for (;;) {
      const [column, ...rest] = await board(`?limit=2&status=To%20Do&cursor=${cursor}`);
      expect(rest).toEqual([]);
      expect(column!.count).toBe(5);
      seen.push(...column!.cards.map((c) => c.key));
      if (!column!.has_more) break;
      cursor = column!.next_cursor;
    }
    expect(seen).toEqual(['BRD-1', 'BRD-2', 'BRD-4', 'BRD-6', 'BRD-7']);
  });

  it('applies the task list filters and text to the counts and the cards', async () => {
    expect(summary(await board(`?assignee=${dev.accountId}`)).slice(0, 2)).toEqual([
      ['To Do', 2, ['BRD-1', 'BRD-7'], false],
      ['In Progress', 2, ['BRD-3', 'BRD-5'], false],
    ]);
    expect(summary(await board('?label=ui&assignee=none')).slice(0, 2)).toEqual([
      ['To Do', 0, [], false],
      ['In Progress', 0, [], false],
    ]);
    // Every word, in any order and case; NOISE's "Login elsewhere" stays out.
    expect(summary(await board('?text=LOGIN')).slice(0, 2)).toEqual([
      ['To Do', 2, ['BRD-1', 'BRD-4'], false],
      ['In Progress', 0, [], false],
    ]);
    expect(summary(await board('?text=links%20footer')).slice(0, 2)).toEqual([
      ['To Do', 0, [], false],
      ['In Progress', 1, ['BRD-3'], false],
    ]);
    expect(summary(await board('?text=brd-6'))[0]).toEqual(['To Do', 1, ['BRD-6'], false]);
    // LIKE's wildcards are plain characters here.
    expect(summary(await board('?text=%25'))[0]).toEqual(['To Do', 0, [], false]);
    expect(summary(await board('?text=_'))[0]).toEqual(['To Do', 0, [], false]);
  });

  it('refuses a cursor without its column and a status the project lacks; unknown projects are 404', async () => {
    const noStatus = await h.request('GET', '/api/v1/projects/BRD/board/?cursor=', { token: admin.token });
    expect(noStatus.status).toBe(400);
    expect(noStatus.body.error.details.fields).toHaveProperty('cursor');
    const unknown = await h.request('GET', '/api/v1/projects/BRD/board/?status=Nope', { token: admin.token });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.fields).toEqual({ status: 'no status named "Nope" in BRD' });
    const badCursor = await h.request('GET', '/api/v1/projects/BRD/board/?status=Done&cursor=xyz', {
      token: admin.token,
    });
    expect(badCursor.status).toBe(400);
    const bigLimit = await h.request('GET', '/api/v1/projects/BRD/board/?limit=201', { token: admin.token });
    expect(bigLimit.status).toBe(400);
    const stranger = await h.actor();
    expect((await h.request('GET', '/api/v1/projects/BRD/board/', { token: stranger.token })).status).toBe(404);
    const restricted = await h.tokenFor(admin.accountId, ['tasks:read'], ['NOISE']);
    expect((await h.request('GET', '/api/v1/projects/BRD/board/', { token: restricted.token })).status).toBe(404);
    const noScope = await h.tokenFor(admin.accountId, ['projects:read']);
    expect((await h.request('GET', '/api/v1/projects/BRD/board/', { token: noScope.token })).status).toBe(403);
  });
});
