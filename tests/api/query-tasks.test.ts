import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type TestHarness } from '../helpers/harness.ts';
import { NOW, writeFixture } from '../query/fixture.ts';
import { seedWorld, type World } from '../query/world.ts';

/** GET /api/v1/tasks/?q= over the fixture of tests/query/fixture.ts (QA and QB visible, QH not). */
describe('GET /api/v1/tasks/?q=: the query language across projects', () => {
  let h: TestHarness;
  let world: World;
  beforeAll(async () => {
    h = await createHarness();
    world = await seedWorld(h);
    await writeFixture(h, world);
  });
  afterAll(() => h.close());

  async function find(q: string, options: { tz?: string; token?: string; extra?: string } = {}) {
    const params = new URLSearchParams({ q, limit: '200' });
    if (options.tz) params.set('tz', options.tz);
    const res = await h.request('GET', `/api/v1/tasks/?${params}${options.extra ?? ''}`, {
      token: options.token ?? world.caller.token,
    });
    return res;
  }
  async function keys(q: string, options: { tz?: string; token?: string } = {}): Promise<string[]> {
    h.clock.set(NOW);
    const res = await find(q, options);
    expect(res.status, `${q}: ${res.text}`).toBe(200);
    return res.body.data.map((task: { key: string }) => task.key).sort();
  }
  const expectKeys = async (q: string, expected: string[], options: { tz?: string; token?: string } = {}) =>
    expect(await keys(q, options), q).toEqual([...expected].sort());

  it('every field with its operators', async () => {
    const cases: Array<[string, string[]]> = [
      ['project = qa', ['QA-1', 'QA-2', 'QA-3']],
      ['project != QA', ['QB-1', 'QB-2']],
      ['project IN (QB, QH)', ['QB-1', 'QB-2']],
      ['key IN (qa-1, QB-2, QH-1)', ['QA-1', 'QB-2']],
      ['key NOT IN (QA-1)', ['QA-2', 'QA-3', 'QB-1', 'QB-2']],
      ['status = "in progress"', ['QA-2']],
      ['status = done', ['QA-3', 'QB-2']],
      ['status = Blocked', ['QB-1']],
      ['status < "In Review"', ['QA-1', 'QA-2']],
      ['status >= done', ['QA-3', 'QB-1', 'QB-2']],
      ['status_category != done', ['QA-1', 'QA-2', 'QB-1']],
      ['status_category IN (todo, in_progress)', ['QA-1', 'QA-2', 'QB-1']],
      ['type = bug', ['QA-1', 'QB-1']],
      ['type != Bug', ['QA-2', 'QA-3', 'QB-2']],
      ['priority = High', ['QA-1', 'QB-1']],
      // Each project's own order: QB lists Urgent first, Low last.
      ['priority >= High', ['QA-1', 'QA-3', 'QB-1', 'QB-2']],
      ['priority < medium', ['QA-2', 'QB-1']],
      ['assignee = me()', ['QA-1', 'QB-1']],
      ['assignee = alice', ['QA-2']],
      ['assignee = "BOB@q.test"', ['QB-2']],
      [`assignee = ${world.people.alice}`, ['QA-2']],
      ['assignee IS EMPTY', ['QA-3']],
      ['assignee != me()', ['QA-2', 'QA-3', 'QB-2']],
      ['assignee IN (me(), bob)', ['QA-1', 'QB-1', 'QB-2']],
      ['creator = alice', ['QA-1']],
      ['creator IS NOT EMPTY', ['QA-1', 'QA-2', 'QB-1']],
      ['label = BUG', ['QA-1', 'QB-1']],
      ['label != bug', ['QA-2', 'QA-3', 'QB-2']],
      ['label NOT IN (ui, backend)', ['QA-1', 'QA-3', 'QB-1']],
      ['label IN (ui, backend)', ['QA-2', 'QB-2']],
      ['label IS EMPTY', ['QA-3']],
      ['milestone = v1', ['QA-1']],
      [`milestone = ${world.milestones.QB![1]}`, ['QB-1']],
      ['milestone IS EMPTY', ['QA-2', 'QA-3', 'QB-2']],
      ['sprint = openSprint()', ['QA-1', 'QB-1']],
      ['sprint = S1', ['QA-1', 'QB-2']],
      ['sprint IS EMPTY', ['QA-3']],
      ['parent = QA-1', ['QA-2']],
      ['parent IS NOT EMPTY', ['QA-2']],
      ['follower = me()', ['QB-1']],
      ['follower = bob', ['QA-1']],
      ['follower IS EMPTY', ['QA-2', 'QA-3', 'QB-2']],
      ['blocked = true', ['QA-2']],
      ['blocked = false', ['QA-1', 'QA-3', 'QB-1', 'QB-2']],
      ['blocked != true', ['QA-1', 'QA-3', 'QB-1', 'QB-2']],
      ['due = 2026-11-22', ['QA-1']],
      ['due != 2026-11-22', ['QA-2', 'QA-3', 'QB-1', 'QB-2']],
      ['due <= endOfWeek()', ['QA-1', 'QA-3', 'QB-2']],
      ['due < today()', ['QA-3', 'QB-2']],
      ['due > +1w', ['QB-1']],
      ['due >= startOfMonth() AND due <= endOfMonth()', ['QA-1', 'QA-3', 'QB-2']],
      ['due IS EMPTY', ['QA-2']],
      ['created >= startOfWeek()', ['QA-1', 'QB-1']],
      ['created > -1d', ['QA-1', 'QB-1']],
      ['created = today()', ['QB-1']],
      ['created < startOfMonth()', ['QA-3']],
      ['updated < -7d', ['QA-2', 'QA-3']],
      ['updated > -1h', ['QB-1', 'QB-2']],
      ['updated <= now()', ['QA-1', 'QA-2', 'QA-3', 'QB-1', 'QB-2']],
      ['title ~ timeout', ['QA-1', 'QB-1']],
      ['title !~ timeout', ['QA-2', 'QA-3', 'QB-2']],
      ['description ~ connection', ['QB-1']],
      ['description IS EMPTY', ['QA-2']],
      ['text ~ "login timeout"', ['QA-1']],
      ['text ~ "timeouts"', ['QA-1', 'QB-1']],
      ['text ~ "TIMEOUT, login!"', ['QA-1']],
      ['text !~ login', ['QA-2', 'QA-3', 'QB-1', 'QB-2']],
      ['cf["Points"] > 5', ['QB-1']],
      ['cf["points"] <= 3', ['QA-1']],
      ['cf["Area"] = web', ['QA-1']],
      ['cf["Tags"] = b', ['QA-1']],
      ['cf["Tags"] != b', ['QA-2', 'QA-3', 'QB-1', 'QB-2']],
      ['cf["Tags"] IN (c, z)', ['QB-1']],
      ['cf["Note"] = hello', ['QA-1']],
      ['cf["Launch"] < endOfMonth()', ['QA-1']],
      ['cf["Flag"] = true', ['QA-1']],
      ['cf["Reviewer"] = me()', ['QA-1']],
      ['cf["Points"] IS EMPTY', ['QA-2', 'QA-3', 'QB-2']],
    ];
    for (const [q, expected] of cases) await expectKeys(q, expected);
  });

  it('NOT binds tighter than AND, AND tighter than OR', async () => {
    await expectKeys('project = QB OR project = QA AND status = done', ['QA-3', 'QB-1', 'QB-2']);
    await expectKeys('(project = QB OR project = QA) AND status = done', ['QA-3', 'QB-2']);
    await expectKeys('NOT project = QA AND status = done', ['QB-2']);
    await expectKeys('NOT (project = QA AND status = done)', ['QA-1', 'QA-2', 'QB-1', 'QB-2']);
    await expectKeys(
      'status_category != done AND assignee = me() AND (label = bug OR priority IN (High, Urgent)) AND due <= endOfMonth() AND text ~ "login timeout"',
      ['QA-1'],
    );
  });

  it('names that exist nowhere, or only where the caller cannot look, match nothing and reveal nothing', async () => {
    for (const q of [
      'status = Nope',
      'label = secret',
      'assignee = zed',
      'milestone = v9',
      'sprint = S9',
      'project = QH',
      'key = QH-1',
      'parent = QH-1',
      'cf["Hidden"] = x',
      'cf["Nope"] IS EMPTY',
      'text ~ secret',
      'type = Nope OR label = Nope',
    ])
      await expectKeys(q, []);
    // Their negations are every visible task, as for any name.
    await expectKeys('label != secret', ['QA-1', 'QA-2', 'QA-3', 'QB-1', 'QB-2']);
    // QB-2's only blocker is in the hidden project: not blocked, for this caller.
    await expectKeys('blocked = true AND project = QB', []);
  });

  it('sees only the projects the caller sees; a restricted token only its own', async () => {
    await expectKeys('', ['QA-1', 'QA-2', 'QA-3', 'QB-1', 'QB-2']);
    const restricted = await h.tokenFor(world.caller.accountId, ['tasks:read'], ['QA']);
    await expectKeys('', ['QA-1', 'QA-2', 'QA-3'], { token: restricted.token });
    await expectKeys('assignee = me()', ['QA-1'], { token: restricted.token });
    await expectKeys('project = QB', [], { token: restricted.token });
    // QB's active sprint is out of the token's sight too.
    await expectKeys('sprint = openSprint()', ['QA-1'], { token: restricted.token });
    const stranger = await h.actor({ org: 'elsewhere' });
    await expectKeys('', [], { token: stranger.token });
    const noScope = await h.tokenFor(world.caller.accountId, ['projects:read']);
    expect((await find('', { token: noScope.token })).status).toBe(403);
    expect((await h.request('GET', '/api/v1/tasks/?q=')).status).toBe(401);
  });

  it('orders offset pages by ORDER BY (newest first without one), ties by project key and number; cursor pages walk ids', async () => {
    h.clock.set(NOW);
    const ordered = async (q: string, extra = '') =>
      (await find(q, { extra })).body.data.map((t: { key: string }) => t.key);
    expect(await ordered('')).toEqual(['QB-1', 'QA-1', 'QB-2', 'QA-2', 'QA-3']);
    expect(await ordered('ORDER BY due')).toEqual(['QA-3', 'QB-2', 'QA-1', 'QB-1', 'QA-2']);
    expect(await ordered('ORDER BY due DESC')).toEqual(['QB-1', 'QA-1', 'QB-2', 'QA-3', 'QA-2']);
    expect(await ordered('ORDER BY status')).toEqual(['QA-1', 'QA-2', 'QA-3', 'QB-2', 'QB-1']);
    expect(await ordered('project = QA ORDER BY priority DESC')).toEqual(['QA-3', 'QA-1', 'QA-2']);
    expect(await ordered('project = QB ORDER BY priority')).toEqual(['QB-1', 'QB-2']);
    expect(await ordered('ORDER BY status_category DESC, key')).toEqual(['QA-3', 'QB-2', 'QA-2', 'QB-1', 'QA-1']);
    expect(await ordered('ORDER BY project DESC, title')).toEqual(['QB-2', 'QB-1', 'QA-2', 'QA-1', 'QA-3']);
    expect(await ordered('ORDER BY type, key DESC')).toEqual(['QB-1', 'QA-1', 'QA-3', 'QB-2', 'QA-2']);
    expect(await ordered('ORDER BY updated DESC')).toEqual(['QB-2', 'QB-1', 'QA-1', 'QA-2', 'QA-3']);

    const first = await h.request('GET', '/api/v1/tasks/?q=ORDER%20BY%20created&limit=2', {
      token: world.caller.token,
    });
    expect(first.body.pagination).toEqual({ count: 5, limit: 2, offset: 0 });
    expect(first.body.data.map((t: { key: string }) => t.key)).toEqual(['QA-3', 'QA-2']);
    const second = await h.request('GET', '/api/v1/tasks/?q=ORDER%20BY%20created&limit=2&page=2', {
      token: world.caller.token,
    });
    expect(second.body.data.map((t: { key: string }) => t.key)).toEqual(['QB-2', 'QA-1']);

    const walked: string[] = [];
    let cursor = '';
    for (let i = 0; i < 5; i++) {
      const page = await h.request(
        'GET',
        `/api/v1/tasks/?q=${encodeURIComponent('status_category != done ORDER BY due')}&limit=2&cursor=${cursor}`,
        { token: world.caller.token },
      );
      walked.push(...page.body.data.map((t: { key: string }) => t.key));
      if (!page.body.pagination.has_more) break;
      cursor = page.body.pagination.next_cursor;
    }
    expect(walked).toEqual(['QA-1', 'QA-2', 'QB-1']);
  });

  it('reads dates in the time zone named by tz (UTC by default), weeks from Monday', async () => {
    // Saturday 23:30 UTC: already Sunday in Auckland, still Saturday afternoon in Los Angeles.
    const at = async (instant: string, q: string, tz?: string) => {
      h.clock.set(instant);
      const res = await find(q, { tz });
      expect(res.status, res.text).toBe(200);
      return res.body.data.map((t: { key: string }) => t.key).sort();
    };
    expect(await at('2026-11-21T23:30:00Z', 'due = today()', 'Pacific/Auckland')).toEqual(['QA-1']);
    expect(await at('2026-11-21T23:30:00Z', 'due = today()', 'America/Los_Angeles')).toEqual([]);
    expect(await at('2026-11-21T23:30:00Z', 'due = today()')).toEqual([]);
    // created = today() is the caller's local day: in Los Angeles 11-21 begins at 08:00 UTC, when QB-1 was created.
    expect(await at('2026-11-21T23:30:00Z', 'created = today()', 'America/Los_Angeles')).toEqual(['QB-1']);
    expect(await at('2026-11-21T23:30:00Z', 'created = today()', 'Pacific/Auckland')).toEqual([]);
    // Sunday 23:30 UTC is Monday in Auckland: a new week starts there.
    expect(await at('2026-11-22T23:30:00Z', 'due >= startOfWeek()', 'Pacific/Auckland')).toEqual(['QB-1']);
    expect(await at('2026-11-22T23:30:00Z', 'due >= startOfWeek()')).toEqual(['QA-1', 'QB-1', 'QB-2']);
    expect(await at('2026-11-22T23:30:00Z', 'due <= endOfWeek()', 'Pacific/Auckland')).toEqual([
      'QA-1',
      'QA-3',
      'QB-2',
    ]);
    // A date field against an instant compares the instant's date in the same zone: +2w from Auckland's Monday.
    expect(await at('2026-11-22T23:30:00Z', 'due < +2w', 'Pacific/Auckland')).toEqual(['QA-1', 'QA-3', 'QB-1', 'QB-2']);
    expect(await at('2026-11-21T09:00:00Z', 'due < +2w')).toEqual(['QA-1', 'QA-3', 'QB-2']);
    expect(await at('2026-11-21T09:00:00Z', 'due <= +2w')).toEqual(['QA-1', 'QA-3', 'QB-1', 'QB-2']);
    expect(await at('2026-11-21T09:00:00Z', 'due < +1w')).toEqual(['QA-1', 'QA-3', 'QB-2']);
    // The last day of the month in the zone: 11-30 23:30 UTC is already December in Auckland.
    expect(
      await at('2026-11-30T23:30:00Z', 'due <= endOfMonth() AND due >= startOfMonth()', 'Pacific/Auckland'),
    ).toEqual(['QB-1']);

    h.clock.set(NOW);
    const bad = await find('due = today()', { tz: 'Mars/Olympus_Mons' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: { tz: expect.any(String) } } });
    expect(await at(NOW, 'due = today()', 'europe/berlin')).toEqual([]);
  });

  it('refuses a query that cannot be run with 400 INVALID_QUERY, its position and what was expected', async () => {
    const refused = async (q: string) => {
      const res = await find(q);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('INVALID_QUERY');
      return res.body.error;
    };
    expect(await refused('stauts = done')).toEqual({
      code: 'INVALID_QUERY',
      message: "unknown field 'stauts' at 0; did you mean 'status'?",
      details: { position: 0, expected: expect.arrayContaining(['status', 'assignee', 'cf["…"]']) },
    });
    expect((await refused('title ~ "never closed')).details).toEqual({ position: 8, expected: ['"'] });
    expect((await refused('status = done AND')).details.position).toBe(17);
    expect((await refused('label < bug')).details).toMatchObject({ position: 6 });
    expect((await refused('cf["Points"] ~ x')).details).toMatchObject({ position: 0 });
    expect((await refused('cf["Area"] = me()')).details).toMatchObject({ position: 13, expected: ['a value'] });
    expect((await refused('cf["Points"] > many')).details).toMatchObject({ position: 15, expected: ['a number'] });
    // A custom field the caller cannot see is not an error: it matches nothing, like a name.
    await expectKeys('cf["Hidden"] ~ x OR cf["Hidden"] > 3', []);
    expect((await find('x'.repeat(2001))).status).toBe(400);
  });
});

describe('GET /api/v1/projects/{key}/tasks/?q=: a query within one project', () => {
  let h: TestHarness;
  let world: World;
  beforeAll(async () => {
    h = await createHarness();
    world = await seedWorld(h);
    await writeFixture(h, world);
    h.clock.set(NOW);
  });
  afterAll(() => h.close());

  const list = (project: string, params: string) =>
    h.request('GET', `/api/v1/projects/${project}/tasks/?${params}`, { token: world.caller.token });

  it("narrows the project's list, together with today's filters", async () => {
    const keys = async (project: string, params: string) => {
      const res = await list(project, params);
      expect(res.status, res.text).toBe(200);
      return res.body.data.map((t: { key: string }) => t.key);
    };
    expect(await keys('QA', `q=${encodeURIComponent('label = bug OR assignee = alice')}`)).toEqual(['QA-1', 'QA-2']);
    expect(
      await keys('QA', `q=${encodeURIComponent('status_category != done')}&assignee=${world.people.alice}`),
    ).toEqual(['QA-2']);
    // Names resolve in this project only: QB's Blocked status is not QA's.
    expect(await keys('QA', `q=${encodeURIComponent('status = Blocked')}`)).toEqual([]);
    expect(await keys('QA', `q=${encodeURIComponent('project = QB')}`)).toEqual([]);
    // The query's ORDER BY, or else the list's ordering, or else newest first.
    expect(await keys('QA', `q=${encodeURIComponent('ORDER BY priority DESC')}`)).toEqual(['QA-3', 'QA-1', 'QA-2']);
    expect(await keys('QA', `q=&ordering=-key`)).toEqual(['QA-3', 'QA-2', 'QA-1']);
    expect(await keys('QA', `q=`)).toEqual(['QA-1', 'QA-2', 'QA-3']);
    expect(await keys('QA', '')).toEqual(['QA-1', 'QA-2', 'QA-3']);
    expect(await keys('QA', `q=${encodeURIComponent('due <= endOfWeek()')}&tz=Pacific/Auckland`)).toEqual([
      'QA-1',
      'QA-3',
    ]);
  });

  it('refuses a query with ORDER BY beside ordering, and a bad query', async () => {
    const both = await list('QA', `q=${encodeURIComponent('ORDER BY due')}&ordering=key`);
    expect(both.status).toBe(400);
    expect(both.body.error.details.fields.ordering).toBeDefined();
    const bad = await list('QA', `q=${encodeURIComponent('status ==')}`);
    expect(bad.body.error).toMatchObject({ code: 'INVALID_QUERY', details: { position: 8 } });
    expect((await list('QH', 'q=')).status).toBe(404);
  });
});
