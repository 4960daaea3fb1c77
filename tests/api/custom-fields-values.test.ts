import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { changesFor, createTask, eventsFor, projectId, removeMember } from '../helpers/factory.ts';
import { customValueRows } from '../helpers/storage.ts';

interface Field {
  id: number;
  name: string;
  options: Array<{ id: number; value: string; position: number }>;
}

describe('custom field values on tasks', () => {
  let h: TestHarness;
  let admin: Actor;
  let teammate: Actor;
  let outsider: Actor;
  let vals: { id: number };

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor();
    teammate = await h.actor({ org: admin.org, role: 'member' });
    outsider = await h.actor({ org: admin.org, role: 'member' });
    vals = await h.project(admin, 'VALS');
    await h.project(admin, 'OTHER');
    await h.addMember('VALS', teammate.accountId, 'member');
  });
  afterAll(() => h.close());

  let counter = 0;
  async function field(type: string, extra: Record<string, unknown> = {}): Promise<Field> {
    const res = await h.request('POST', '/api/v1/custom-fields/', {
      token: admin.token,
      body: { name: `${type} ${++counter}`, type, projects: [vals.id], ...extra },
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data;
  }
  const put = (key: string, body: unknown) => h.request('PUT', `/api/v1/tasks/${key}/`, { token: admin.token, body });
  const read = async (key: string) =>
    (await h.request('GET', `/api/v1/tasks/${key}/`, { token: admin.token })).body.data;
  const setValue = (key: string, id: number, value: unknown) => put(key, { custom_fields: { [id]: value } });

  it('each type accepts its values and refuses others with a 400 naming custom_fields.<id>', async () => {
    const select = await field('select', { options: ['A', 'B'] });
    const multi = await field('multi_select', { options: ['X', 'Y', 'Z'] });
    const foreignOption = (await field('select', { options: ['elsewhere'] })).options[0]!.id;
    const [a] = select.options.map((o) => o.id);
    const [x, , z] = multi.options.map((o) => o.id) as [number, number, number];
    const table: Array<[string, Field, unknown[], unknown[]]> = [
      ['text', await field('text'), ['hello', ' ', 'x'.repeat(10_000)], [5, true, ['a'], { a: 1 }, 'x'.repeat(10_001)]],
      ['number', await field('number'), [0, -3.5, 1e12], ['5', true, [1]]],
      [
        'date',
        await field('date'),
        ['2026-02-28', '2024-02-29'],
        ['2026-02-30', '2026-2-3', '2026-02-28T00:00:00Z', 20260228],
      ],
      ['boolean', await field('boolean'), [true, false], [0, 'true', 'yes']],
      [
        'url',
        await field('url'),
        ['https://example.com/a?b=1', 'http://intranet:8080/x'],
        ['ftp://example.com', 'example.com', 'javascript:alert(1)', 'https://', `https://e.com/${'a'.repeat(2048)}`],
      ],
      [
        'user',
        await field('user'),
        [admin.accountId, teammate.accountId],
        [outsider.accountId, 999999, 9999999999, 'me', 0],
      ],
      ['select', select, [a], [foreignOption, 999999, [a], 'A']],
      ['multi_select', multi, [[x], [z, x]], [[x, x], [foreignOption], x, ['X']]],
    ];
    const task = await createTask(h, admin, 'VALS');
    for (const [type, f, good, bad] of table) {
      for (const value of good) {
        const res = await setValue(task.key, f.id, value);
        expect(res.status, `${type} ${JSON.stringify(value)} ${res.text}`).toBe(200);
      }
      for (const value of bad) {
        const res = await setValue(task.key, f.id, value);
        expect(res.status, `${type} ${JSON.stringify(value)}`).toBe(400);
        expect(res.body.error.details.fields, `${type} ${JSON.stringify(value)}`).toHaveProperty([
          `custom_fields.${f.id}`,
        ]);
      }
    }
    // multi_select is a set: stored and shown sorted by option id.
    expect((await read(task.key)).custom_fields[multi.id]).toEqual([x, z].sort((p, q) => p - q));
  });

  it('task JSON holds only fields with a value; null, "" and [] clear', async () => {
    const text = await field('text');
    const multi = await field('multi_select', { options: ['X'] });
    const number = await field('number');
    const task = await createTask(h, admin, 'VALS', {
      custom_fields: { [text.id]: 'hi', [multi.id]: [multi.options[0]!.id], [number.id]: null },
    });
    expect(task.custom_fields).toEqual({ [text.id]: 'hi', [multi.id]: [multi.options[0]!.id] });
    expect((await put(task.key, { custom_fields: { [text.id]: '', [multi.id]: [] } })).body.data.custom_fields).toEqual(
      {},
    );
    expect((await setValue(task.key, number.id, 42)).body.data.custom_fields).toEqual({ [number.id]: 42 });
    expect((await setValue(task.key, number.id, null)).body.data.custom_fields).toEqual({});
    // Only the fields sent change.
    await put(task.key, { custom_fields: { [text.id]: 'a', [number.id]: 1 } });
    expect((await setValue(task.key, text.id, 'b')).body.data.custom_fields).toEqual({
      [text.id]: 'b',
      [number.id]: 1,
    });
  });

  it("applicability: a field that does not apply to the task's project is a 400 naming it; unknown and foreign field ids too", async () => {
    const onlyVals = await field('text', { name: 'Vals only' });
    const task = await createTask(h, admin, 'OTHER');
    const res = await setValue(task.key, onlyVals.id, 'x');
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields[`custom_fields.${onlyVals.id}`]).toMatch(
      /"Vals only" does not apply to this project/,
    );
    const create = await h.request('POST', '/api/v1/projects/OTHER/tasks/', {
      token: admin.token,
      body: { title: 't', custom_fields: { [onlyVals.id]: 'x' } },
    });
    expect(create.status).toBe(400);

    expect((await setValue(task.key, 999999, 'x')).body.error.details.fields).toHaveProperty(['custom_fields.999999']);
    expect((await setValue(task.key, 9999999999, 'x')).body.error.details.fields).toHaveProperty([
      'custom_fields.9999999999',
    ]);
    const stranger = await h.actor();
    const theirs = await h.request('POST', '/api/v1/custom-fields/', {
      token: stranger.token,
      body: { name: 'Theirs', type: 'text' },
    });
    expect((await setValue(task.key, theirs.body.data.id, 'x')).status).toBe(400);
    // Keys must be field ids.
    expect((await put(task.key, { custom_fields: { severity: 'x' } })).body.error.details.fields).toHaveProperty([
      'custom_fields.severity',
    ]);
    // A field for every project applies to OTHER.
    const everywhere = await field('text', { projects: null });
    expect((await setValue(task.key, everywhere.id, 'x')).status).toBe(200);
  });

  it('required fields must get a value on create (400) and cannot be cleared; other projects are not affected', async () => {
    await h.project(admin, 'REQ');
    const req = await projectId(h, 'REQ');
    const required = await field('text', { name: 'Must have', required: true, projects: [req] });
    const missing = await h.request('POST', '/api/v1/projects/REQ/tasks/', {
      token: admin.token,
      body: { title: 't' },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details.fields).toEqual({ [`custom_fields.${required.id}`]: '"Must have" is required' });
    const asNull = await h.request('POST', '/api/v1/projects/REQ/tasks/', {
      token: admin.token,
      body: { title: 't', custom_fields: { [required.id]: null } },
    });
    expect(asNull.status).toBe(400);
    const bulk = await h.request('POST', '/api/v1/projects/REQ/tasks/bulk/', {
      token: admin.token,
      body: { tasks: [{ title: 'ok', custom_fields: { [required.id]: 'v' } }, { title: 'missing' }] },
    });
    expect(bulk.status).toBe(400);
    expect(bulk.body.error.details.items).toEqual([
      expect.objectContaining({ index: 1, fields: { [`custom_fields.${required.id}`]: '"Must have" is required' } }),
    ]);

    const task = await createTask(h, admin, 'REQ', { custom_fields: { [required.id]: 'v' } });
    const cleared = await setValue(task.key, required.id, null);
    expect(cleared.status).toBe(400);
    expect(cleared.body.error.details.fields[`custom_fields.${required.id}`]).toMatch(/required and cannot be cleared/);
    expect((await setValue(task.key, required.id, '')).status).toBe(400);
    expect((await setValue(task.key, required.id, 'w')).status).toBe(200);
    // Edits that do not touch it are fine; so is a subtask with it.
    expect((await put(task.key, { title: 'renamed' })).status).toBe(200);
    const sub = await h.request('POST', `/api/v1/tasks/${task.key}/subtasks/`, {
      token: admin.token,
      body: { title: 's', custom_fields: { [required.id]: 'v' } },
    });
    expect(sub.status).toBe(201);
    expect(
      (await h.request('POST', `/api/v1/tasks/${task.key}/subtasks/`, { token: admin.token, body: { title: 's' } }))
        .status,
    ).toBe(400);
    // Tasks of projects it does not apply to are unaffected.
    await createTask(h, admin, 'VALS');
  });

  it('a user value must be a project member when it changes; a kept value survives the member leaving', async () => {
    const user = await field('user');
    const extra = await h.actor({ org: admin.org, role: 'member' });
    await h.addMember('VALS', extra.accountId, 'member');
    const task = await createTask(h, admin, 'VALS', { custom_fields: { [user.id]: extra.accountId } });
    await removeMember(h, admin, 'VALS', extra.accountId);
    expect((await put(task.key, { title: 'still fine', custom_fields: { [user.id]: extra.accountId } })).status).toBe(
      200,
    );
    const other = await createTask(h, admin, 'VALS');
    expect(
      (await setValue(other.key, user.id, extra.accountId)).body.error.details.fields[`custom_fields.${user.id}`],
    ).toMatch(/not a member/);
  });

  it('renaming and reordering options leaves task values (option ids) intact', async () => {
    const select = await field('select', { options: ['Low', 'High'] });
    const multi = await field('multi_select', { options: ['a', 'b', 'c'] });
    const [low, high] = select.options.map((o) => o.id);
    const [ma, mb, mc] = multi.options.map((o) => o.id) as [number, number, number];
    const task = await createTask(h, admin, 'VALS', { custom_fields: { [select.id]: high, [multi.id]: [mc, ma] } });
    const before = await h.request('GET', `/api/v1/tasks/${task.key}/`, { token: admin.token });
    const stored = await customValueRows(h, [select.id, multi.id]);

    expect(
      (
        await h.request('PUT', `/api/v1/custom-fields/options/${high}/`, {
          token: admin.token,
          body: { value: 'Critical' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await h.request('POST', '/api/v1/custom-fields/reorder/', {
          token: admin.token,
          body: { field: select.id, options: [high, low] },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await h.request('POST', '/api/v1/custom-fields/reorder/', {
          token: admin.token,
          body: { field: multi.id, options: [mc, mb, ma] },
        })
      ).status,
    ).toBe(200);
    const renamedViaPut = await h.request('PUT', `/api/v1/custom-fields/${multi.id}/`, {
      token: admin.token,
      body: {
        options: [
          { id: mb, value: 'B' },
          { id: mc, value: 'C' },
          { id: ma, value: 'A' },
        ],
      },
    });
    expect(renamedViaPut.status).toBe(200);

    const after = await h.request('GET', `/api/v1/tasks/${task.key}/`, { token: admin.token });
    expect(after.body.data).toEqual(before.body.data);
    expect(after.body.data.custom_fields).toEqual({ [select.id]: high, [multi.id]: [ma, mc].sort((p, q) => p - q) });
    expect(after.headers.etag).toBe(before.headers.etag);
    expect(await customValueRows(h, [select.id, multi.id])).toEqual(stored);
    expect((await changesFor(h, task.key)).map((c) => c.action)).toEqual(['created']);
    // The definition reads with the new names and order.
    const def = (await h.request('GET', `/api/v1/custom-fields/${select.id}/`, { token: admin.token })).body.data;
    expect(def.options).toEqual([
      { id: high, value: 'Critical', position: 0 },
      { id: low, value: 'Low', position: 1 },
    ]);
  });

  it('an option tasks hold cannot be deleted: 409 OPTION_IN_USE with details.task_count; it can once they let go', async () => {
    const select = await field('select', { options: ['Keep', 'Used', 'Unused'] });
    const multi = await field('multi_select', { options: ['m1', 'm2'] });
    const [keep, used, unused] = select.options.map((o) => o.id);
    const [m1, m2] = multi.options.map((o) => o.id);
    const t1 = await createTask(h, admin, 'VALS', { custom_fields: { [select.id]: used, [multi.id]: [m1, m2] } });
    const t2 = await createTask(h, admin, 'VALS', { custom_fields: { [select.id]: used, [multi.id]: [m2] } });

    const refused = await h.request('PUT', `/api/v1/custom-fields/${select.id}/`, {
      token: admin.token,
      body: { options: [{ id: keep }] },
    });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'OPTION_IN_USE', details: { task_count: 2, options: [used] } });
    const multiRefused = await h.request('PUT', `/api/v1/custom-fields/${multi.id}/`, {
      token: admin.token,
      body: { options: [{ id: m1 }] },
    });
    expect(multiRefused.body.error.details).toEqual({ task_count: 2, options: [m2] });
    // Nothing changed, not even the unused option or the new one.
    expect(
      (await h.request('GET', `/api/v1/custom-fields/${select.id}/`, { token: admin.token })).body.data.options,
    ).toEqual(select.options);

    const dropUnused = await h.request('PUT', `/api/v1/custom-fields/${select.id}/`, {
      token: admin.token,
      body: { options: [{ id: keep }, { id: used }] },
    });
    expect(dropUnused.status).toBe(200);
    expect(dropUnused.body.data.options.map((o: { id: number }) => o.id)).not.toContain(unused);
    await setValue(t1.key, select.id, keep);
    await setValue(t2.key, select.id, null);
    expect(
      (
        await h.request('PUT', `/api/v1/custom-fields/${select.id}/`, {
          token: admin.token,
          body: { options: [{ id: keep }] },
        })
      ).status,
    ).toBe(200);
    await setValue(t2.key, multi.id, [m1]);
    await setValue(t1.key, multi.id, [m1]);
    expect(
      (
        await h.request('PUT', `/api/v1/custom-fields/${multi.id}/`, {
          token: admin.token,
          body: { options: [{ id: m1 }] },
        })
      ).status,
    ).toBe(200);
  });

  it('value changes go through the task write path: activity, change record and task.updated changes["custom_fields.<id>"]', async () => {
    const text = await field('text');
    const select = await field('select', { options: ['One', 'Two'] });
    const [one, two] = select.options.map((o) => o.id);
    const task = await createTask(h, admin, 'VALS', { custom_fields: { [select.id]: one } });
    h.clock.advance(1000);
    const res = await put(task.key, { custom_fields: { [text.id]: 'written', [select.id]: two } });
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe('"v2"');
    const updated = res.body.data;

    const expected = {
      [`custom_fields.${text.id}`]: { from: null, to: 'written' },
      [`custom_fields.${select.id}`]: { from: one, to: two },
    };
    const events = await eventsFor(h, task.key);
    expect(events.map((e) => e.type)).toEqual(['task.created', 'task.updated']);
    expect(events[0]!.data.task).toMatchObject({ custom_fields: { [select.id]: one } });
    expect(events[1]!.data).toEqual({ task: updated, changes: expected });
    const changes = await changesFor(h, task.key);
    expect(changes.at(-1)).toMatchObject({ action: 'updated', task: updated });
    const activity = (await h.request('GET', `/api/v1/tasks/${task.key}/activities/`, { token: admin.token })).body
      .data;
    expect(
      activity
        .filter((a: { action: string }) => a.action === 'updated')
        .map((a: { field: string; from: unknown; to: unknown }) => [a.field, a.from, a.to]),
    ).toEqual(expect.arrayContaining(Object.entries(expected).map(([f, { from, to }]) => [f, from, to])));
    // The same values again change nothing.
    const same = await put(task.key, { custom_fields: { [text.id]: 'written', [select.id]: two } });
    expect(same.headers.etag).toBe('"v2"');
    expect(await eventsFor(h, task.key)).toHaveLength(2);
  });

  it('deleting a definition removes its values, each through the write path (activity, change record, task.updated)', async () => {
    const doomed = await field('number', { name: 'Doomed' });
    const kept = await field('text');
    const t1 = await createTask(h, admin, 'VALS', { custom_fields: { [doomed.id]: 1, [kept.id]: 'stay' } });
    const t2 = await createTask(h, admin, 'VALS', { custom_fields: { [doomed.id]: 2 } });
    const untouched = await createTask(h, admin, 'VALS');
    expect((await h.request('DELETE', `/api/v1/custom-fields/${doomed.id}/`, { token: admin.token })).status).toBe(204);

    expect((await read(t1.key)).custom_fields).toEqual({ [kept.id]: 'stay' });
    expect((await read(t2.key)).custom_fields).toEqual({});
    expect(await customValueRows(h, [doomed.id])).toEqual([]);
    for (const [task, value] of [
      [t1, 1],
      [t2, 2],
    ] as const) {
      const last = (await eventsFor(h, task.key)).at(-1)!;
      expect(last).toMatchObject({
        type: 'task.updated',
        data: { changes: { [`custom_fields.${doomed.id}`]: { from: value, to: null } } },
      });
      expect((await changesFor(h, task.key)).map((c) => c.action)).toEqual(['created', 'updated']);
    }
    expect((await eventsFor(h, untouched.key)).map((e) => e.type)).toEqual(['task.created']);
  });

  it('bulk create and bulk-update write values; a bad value refuses the call with per-item errors', async () => {
    const number = await field('number');
    const created = await h.request('POST', '/api/v1/projects/VALS/tasks/bulk/', {
      token: admin.token,
      body: { tasks: [{ title: 'b1', custom_fields: { [number.id]: 1 } }, { title: 'b2' }] },
    });
    expect(created.status).toBe(201);
    const [b1, b2] = created.body.data;
    expect(b1.custom_fields).toEqual({ [number.id]: 1 });
    const updated = await h.request('POST', '/api/v1/projects/VALS/tasks/bulk-update/', {
      token: admin.token,
      body: {
        tasks: [
          { key: b1.key, custom_fields: { [number.id]: null } },
          { key: b2.key, custom_fields: { [number.id]: 7 } },
        ],
      },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.map((t: { custom_fields: unknown }) => t.custom_fields)).toEqual([{}, { [number.id]: 7 }]);
    const refused = await h.request('POST', '/api/v1/projects/VALS/tasks/bulk-update/', {
      token: admin.token,
      body: {
        tasks: [
          { key: b1.key, custom_fields: { [number.id]: 3 } },
          { key: b2.key, custom_fields: { [number.id]: 'seven' } },
        ],
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details.items).toEqual([
      expect.objectContaining({
        index: 1,
        key: b2.key,
        fields: { [`custom_fields.${number.id}`]: expect.any(String) },
      }),
    ]);
    expect((await read(b1.key)).custom_fields).toEqual({});
  });

  it("lists carry each task's values", async () => {
    const text = await field('text');
    await h.project(admin, 'LIST');
    const listProject = await projectId(h, 'LIST');
    await h.request('PUT', `/api/v1/custom-fields/${text.id}/`, {
      token: admin.token,
      body: { projects: [vals.id, listProject] },
    });
    for (let i = 0; i < 5; i++)
      await createTask(h, admin, 'LIST', { custom_fields: i % 2 ? {} : { [text.id]: `v${i}` } });
    const list = await h.request('GET', '/api/v1/projects/LIST/tasks/', { token: admin.token });
    expect(list.body.data.map((t: { custom_fields: unknown }) => t.custom_fields)).toEqual([
      { [text.id]: 'v0' },
      {},
      { [text.id]: 'v2' },
      {},
      { [text.id]: 'v4' },
    ]);
  });

  it('concurrency: deleting an option while a task takes it never leaves a dangling value (repeated)', async () => {
    for (let round = 0; round < 5; round++) {
      const select = await field('select', { options: ['stay', 'go'] });
      const [stay, go] = select.options.map((o) => o.id);
      const task = await createTask(h, admin, 'VALS');
      const [taskWrite, definitionWrite] = await Promise.all([
        setValue(task.key, select.id, go),
        h.request('PUT', `/api/v1/custom-fields/${select.id}/`, {
          token: admin.token,
          body: { options: [{ id: stay }] },
        }),
      ]);
      const outcome = [taskWrite.status, definitionWrite.status];
      // Either the task took the option first (the delete is refused) or the delete came first (the value is refused).
      expect(
        [
          [200, 409],
          [400, 200],
        ],
        `round ${round}`,
      ).toContainEqual(outcome);
      const options = (
        await h.request('GET', `/api/v1/custom-fields/${select.id}/`, { token: admin.token })
      ).body.data.options.map((o: { id: number }) => o.id);
      const value = (await read(task.key)).custom_fields[select.id];
      if (value !== undefined) expect(options).toContain(value);
    }
  });

  it('concurrency: deleting a definition while a task holding a value is deleted: both succeed', async () => {
    for (let round = 0; round < 3; round++) {
      const doomed = await field('text');
      const task = await createTask(h, admin, 'VALS', { custom_fields: { [doomed.id]: 'x' } });
      const results = await Promise.all([
        h.request('DELETE', `/api/v1/custom-fields/${doomed.id}/`, { token: admin.token }),
        h.request('DELETE', `/api/v1/tasks/${task.key}/`, { token: admin.token }),
      ]);
      expect(
        results.map((r) => r.status),
        `round ${round}`,
      ).toEqual([204, 204]);
    }
  });

  it('concurrency: deleting a definition while tasks write values leaves no value behind and records every removal', async () => {
    for (let round = 0; round < 3; round++) {
      const doomed = await field('text');
      const tasks = [await createTask(h, admin, 'VALS'), await createTask(h, admin, 'VALS')];
      const results = await Promise.all([
        setValue(tasks[0]!.key, doomed.id, 'a'),
        h.request('DELETE', `/api/v1/custom-fields/${doomed.id}/`, { token: admin.token }),
        setValue(tasks[1]!.key, doomed.id, 'b'),
      ]);
      expect(results[1]!.status).toBe(204);
      expect(await customValueRows(h, [doomed.id])).toEqual([]);
      for (const [i, task] of tasks.entries()) {
        const write = results[i === 0 ? 0 : 2]!;
        expect([200, 400]).toContain(write.status);
        const actions = (await changesFor(h, task.key)).map((c) => c.action);
        // A value that was written was also removed, visibly.
        expect(actions, `round ${round} task ${i}`).toEqual(
          write.status === 200 ? ['created', 'updated', 'updated'] : ['created'],
        );
      }
    }
  });
});
