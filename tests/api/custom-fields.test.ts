import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser } from '../../src/modules/accounts/accounts.service.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { createTask } from '../helpers/factory.ts';

describe('custom field definitions and options', () => {
  let h: TestHarness;
  let admin: Actor;
  let member: Actor;
  let alpha: { id: number };
  let beta: { id: number };

  beforeAll(async () => {
    h = await createHarness();
    admin = await h.actor({ role: 'admin' });
    member = await h.actor({ org: admin.org, role: 'member' });
    alpha = await h.project(admin, 'ALPHA');
    beta = await h.project(admin, 'BETA');
    await h.addMember('ALPHA', member.accountId, 'member');
  });
  afterAll(() => h.close());

  let counter = 0;
  const create = (body: Record<string, unknown>, token = admin.token) =>
    h.request('POST', '/api/v1/custom-fields/', { token, body: { name: `Field ${++counter}`, type: 'text', ...body } });
  const put = (id: number, body: unknown, token = admin.token) =>
    h.request('PUT', `/api/v1/custom-fields/${id}/`, { token, body });
  const get = (id: number, token = admin.token) => h.request('GET', `/api/v1/custom-fields/${id}/`, { token });
  /** Service accounts cannot be owners: an owner is a person with a token. */
  const owner = async (): Promise<Actor> => {
    const user = await createUser(h.ctx, { org: admin.org, kind: 'human', name: `Owner ${++counter}`, role: 'owner' });
    return { accountId: user.id, org: admin.org, ...(await h.tokenFor(user.id)) };
  };

  it('POST creates a definition; options come from strings or {value}, positioned in the order given', async () => {
    const res = await create({
      name: 'Severity',
      type: 'select',
      description: 'How bad',
      options: ['High', { value: 'Low' }],
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      name: 'Severity',
      type: 'select',
      description: 'How bad',
      required: false,
      projects: null,
      options: [
        { id: expect.any(Number), value: 'High', position: 0 },
        { id: expect.any(Number), value: 'Low', position: 1 },
      ],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await get(res.body.data.id)).body.data).toEqual(res.body.data);
  });

  it('every type can be defined; options are only for select and multi_select', async () => {
    for (const type of ['text', 'number', 'date', 'boolean', 'url', 'user', 'select', 'multi_select']) {
      const res = await create({ type });
      expect(res.status, type).toBe(201);
      expect(res.body.data.options).toEqual([]);
    }
    const res = await create({ type: 'number', options: ['1'] });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields).toHaveProperty('options');
    expect((await create({ type: 'rating' })).status).toBe(400);
    expect((await create({ type: 'select', options: ['A', 'A'] })).body.error.details.fields.options).toMatch(
      /repeated: "A"/,
    );
    expect((await create({ type: 'select', options: [''] })).status).toBe(400);
  });

  it('names are unique in the workspace (409 ALREADY_EXISTS), not across workspaces', async () => {
    expect((await create({ name: 'Unique name' })).status).toBe(201);
    const again = await create({ name: 'Unique name' });
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'name' } });
    const stranger = await h.actor();
    expect((await create({ name: 'Unique name' }, stranger.token)).status).toBe(201);
  });

  it('only workspace owners and admins write definitions, with an unrestricted token; members read them', async () => {
    const field = (await create({ type: 'select', options: ['x'] })).body.data;
    const restricted = (await h.tokenFor(admin.accountId, undefined, ['ALPHA'])).token;
    for (const token of [member.token, restricted]) {
      const attempts = [
        await create({}, token),
        await put(field.id, { name: 'renamed' }, token),
        await h.request('DELETE', `/api/v1/custom-fields/${field.id}/`, { token }),
        await h.request('PUT', `/api/v1/custom-fields/options/${field.options[0].id}/`, {
          token,
          body: { value: 'y' },
        }),
        await h.request('POST', '/api/v1/custom-fields/reorder/', {
          token,
          body: { field: field.id, options: [field.options[0].id] },
        }),
      ];
      expect(attempts.map((r) => r.status)).toEqual([403, 403, 403, 403, 403]);
      expect(attempts[0]!.body.error.code).toBe('FORBIDDEN');
      expect((await get(field.id, token)).status).toBe(200);
    }
    expect((await put(field.id, { description: 'by the owner' }, (await owner()).token)).status).toBe(200);
    const readOnly = (await h.tokenFor(admin.accountId, ['customfields:read'])).token;
    expect((await create({}, readOnly)).body.error).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: { required: 'customfields:write' },
    });
  });

  it('projects: ids the caller cannot see are 404 naming them; readers see only projects they can see', async () => {
    const stranger = await h.actor();
    const foreign = await h.project(stranger, 'FOREIGN');
    const notMember = (await h.project(member, 'MEMBERS')) as { id: number }; // in admin's workspace, admin not a member
    const res = await create({ projects: [alpha.id, foreign.id, notMember.id] });
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'NOT_FOUND', details: { projects: [foreign.id, notMember.id] } });

    const field = (await create({ projects: [alpha.id, beta.id] })).body.data;
    expect(field.projects).toEqual([alpha.id, beta.id]);
    // The member sees ALPHA only.
    expect((await get(field.id, member.token)).body.data.projects).toEqual([alpha.id]);
  });

  it('PUT by someone who cannot see some projects keeps the field applying to them', async () => {
    const other = await owner();
    await h.addMember('ALPHA', other.accountId, 'member');
    const field = (await create({ projects: [alpha.id, beta.id] })).body.data;
    const gamma = await h.project(other, 'GAMMA');
    const res = await put(field.id, { projects: [gamma.id] }, other.token);
    expect(res.status).toBe(200);
    expect(res.body.data.projects).toEqual([gamma.id]);
    // ALPHA (visible to `other`) was removed; BETA (invisible to it) was kept.
    expect((await get(field.id)).body.data.projects).toEqual([beta.id]);
    expect((await put(field.id, { projects: null })).body.data.projects).toBeNull();
  });

  it("GET list: paginated, by name; `project` keeps fields applying to that project; other workspaces' fields are invisible", async () => {
    const stranger = await h.actor();
    const theirs = (await create({ name: 'Theirs' }, stranger.token)).body.data;
    expect((await get(theirs.id)).status).toBe(404);
    expect((await put(theirs.id, { name: 'x' })).status).toBe(404);
    expect((await h.request('DELETE', `/api/v1/custom-fields/${theirs.id}/`, { token: admin.token })).status).toBe(404);

    const onlyBeta = (await create({ name: 'zz only beta', projects: [beta.id] })).body.data;
    const all = await h.request('GET', '/api/v1/custom-fields/?limit=200', { token: admin.token });
    const names: string[] = all.body.data.map((f: { name: string }) => f.name);
    expect(names).toEqual([...names].sort());
    expect(names).not.toContain('Theirs');
    expect(all.body.pagination.count).toBe(names.length);

    const forAlpha = await h.request('GET', `/api/v1/custom-fields/?project=${alpha.id}&limit=200`, {
      token: admin.token,
    });
    const alphaIds = forAlpha.body.data.map((f: { id: number }) => f.id);
    expect(alphaIds).not.toContain(onlyBeta.id);
    expect(
      forAlpha.body.data.every(
        (f: { projects: number[] | null }) => f.projects === null || f.projects.includes(alpha.id),
      ),
    ).toBe(true);
    const forBeta = await h.request('GET', `/api/v1/custom-fields/?project=${beta.id}&limit=200`, {
      token: admin.token,
    });
    expect(forBeta.body.data.map((f: { id: number }) => f.id)).toContain(onlyBeta.id);
    expect((await h.request('GET', `/api/v1/custom-fields/?project=${beta.id}`, { token: member.token })).status).toBe(
      404,
    );
  });

  it('PUT changes any subset; the type cannot change', async () => {
    // Applies to no project, so making it required affects no other test.
    const field = (await create({ name: 'Estimate', type: 'number', projects: [] })).body.data;
    h.clock.advance(1000);
    const res = await put(field.id, { description: 'Story points', required: true, type: 'number' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      name: 'Estimate',
      description: 'Story points',
      required: true,
      type: 'number',
    });
    expect(res.body.data.updated_at > field.updated_at).toBe(true);
    const retype = await put(field.id, { type: 'text' });
    expect(retype.status).toBe(400);
    expect(retype.body.error.details.fields).toHaveProperty('type');
    expect((await put(field.id, { options: ['a'] })).status).toBe(400);
    expect((await put(field.id, { unknown: 1 })).status).toBe(400);
    expect((await put(999999, { name: 'x' })).status).toBe(404);
  });

  it('PUT options: ids keep (and may rename) options, items without id are new, left-out unused options are deleted', async () => {
    const field = (await create({ type: 'select', options: ['A', 'B', 'C'] })).body.data;
    const [a, b, c] = field.options;
    const res = await put(field.id, { options: [{ id: c.id, value: 'C!' }, 'D', { id: a.id }, { value: 'E' }] });
    expect(res.status).toBe(200);
    expect(res.body.data.options).toEqual([
      { id: c.id, value: 'C!', position: 0 },
      { id: expect.any(Number), value: 'D', position: 1 },
      { id: a.id, value: 'A', position: 2 },
      { id: expect.any(Number), value: 'E', position: 3 },
    ]);
    expect(res.body.data.options.map((o: { id: number }) => o.id)).not.toContain(b.id);
    // Sending back what was read changes nothing.
    const again = await put(field.id, { options: res.body.data.options });
    expect(again.body.data.options).toEqual(res.body.data.options);
    // Values can swap within one PUT.
    const swapped = await put(field.id, {
      options: [
        { id: c.id, value: 'A' },
        { id: a.id, value: 'C!' },
      ],
    });
    expect(swapped.status).toBe(200);
    expect(swapped.body.data.options.map((o: { id: number; value: string }) => [o.id, o.value])).toEqual([
      [c.id, 'A'],
      [a.id, 'C!'],
    ]);
  });

  it('PUT options refuses foreign or repeated ids, items with neither id nor value, and repeated values (400)', async () => {
    const field = (await create({ type: 'multi_select', options: ['A', 'B'] })).body.data;
    const other = (await create({ type: 'select', options: ['X'] })).body.data;
    const [a, b] = field.options;
    const cases: Array<[unknown[], string]> = [
      [[{ id: other.options[0].id }], 'options[0].id'],
      [[{ id: a.id }, { id: a.id }], 'options[1].id'],
      [[{ id: a.id }, {}], 'options[1]'],
      [[{ id: a.id }, { id: b.id, value: 'A' }], 'options'],
      [['B', { id: a.id, value: 'B' }], 'options'],
    ];
    for (const [options, path] of cases) {
      const res = await put(field.id, { options });
      expect(res.status, JSON.stringify(options)).toBe(400);
      expect(res.body.error.details.fields, JSON.stringify(options)).toHaveProperty([path]);
    }
    expect((await get(field.id)).body.data.options).toEqual(field.options);
  });

  it("PUT /custom-fields/options/{id}/ renames one option; a value the field already has is 409; other workspaces' options are 404", async () => {
    const field = (await create({ type: 'select', options: ['Low', 'High'] })).body.data;
    const [low, high] = field.options;
    const res = await h.request('PUT', `/api/v1/custom-fields/options/${high.id}/`, {
      token: admin.token,
      body: { value: 'Critical' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ id: high.id, field: field.id, value: 'Critical', position: 1 });
    const clash = await h.request('PUT', `/api/v1/custom-fields/options/${low.id}/`, {
      token: admin.token,
      body: { value: 'Critical' },
    });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toMatchObject({ code: 'ALREADY_EXISTS', details: { field: 'value' } });
    expect(
      (await h.request('PUT', `/api/v1/custom-fields/options/${low.id}/`, { token: admin.token, body: { value: '' } }))
        .status,
    ).toBe(400);
    const stranger = await h.actor();
    expect(
      (
        await h.request('PUT', `/api/v1/custom-fields/options/${low.id}/`, {
          token: stranger.token,
          body: { value: 'Mine' },
        })
      ).status,
    ).toBe(404);
    expect((await get(field.id)).body.data.options.map((o: { value: string }) => o.value)).toEqual(['Low', 'Critical']);
  });

  it('POST /custom-fields/reorder/ sets positions; the list must be every option exactly once', async () => {
    const field = (await create({ type: 'select', options: ['A', 'B', 'C'] })).body.data;
    const [a, b, c] = field.options.map((o: { id: number }) => o.id);
    const reorder = (body: unknown) =>
      h.request('POST', '/api/v1/custom-fields/reorder/', { token: admin.token, body });
    const res = await reorder({ field: field.id, options: [c, a, b] });
    expect(res.status).toBe(200);
    expect(res.body.data.options).toEqual([
      { id: c, value: 'C', position: 0 },
      { id: a, value: 'A', position: 1 },
      { id: b, value: 'B', position: 2 },
    ]);
    expect((await reorder({ field: field.id, options: [c, a] })).body.error.details.fields.options).toMatch(
      /missing: /,
    );
    expect((await reorder({ field: field.id, options: [c, a, b, 999999] })).body.error.details.fields.options).toMatch(
      /not options of this field: 999999/,
    );
    expect((await reorder({ field: field.id, options: [c, a, a] })).status).toBe(400);
    expect((await reorder({ field: 999999, options: [] })).status).toBe(404);
  });

  it('DELETE removes the definition (204, then 404)', async () => {
    const field = (await create({ type: 'select', options: ['A'] })).body.data;
    expect((await h.request('DELETE', `/api/v1/custom-fields/${field.id}/`, { token: admin.token })).status).toBe(204);
    expect((await get(field.id)).status).toBe(404);
    expect(
      (
        await h.request('PUT', `/api/v1/custom-fields/options/${field.options[0].id}/`, {
          token: admin.token,
          body: { value: 'B' },
        })
      ).status,
    ).toBe(404);
  });

  it('narrowing projects is refused (409 FIELD_IN_USE) while tasks of the projects left out hold values', async () => {
    const field = (await create({ name: 'Narrow me' })).body.data;
    const task = await createTask(h, admin, 'BETA', { custom_fields: { [field.id]: 'set in BETA' } });
    const res = await put(field.id, { projects: [alpha.id] });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'FIELD_IN_USE', details: { task_count: 1 } });
    expect((await get(field.id)).body.data.projects).toBeNull();
    expect((await put(field.id, { projects: [alpha.id, beta.id] })).status).toBe(200);
    await h.request('PUT', `/api/v1/tasks/${task.key}/`, {
      token: admin.token,
      body: { custom_fields: { [field.id]: null } },
    });
    expect((await put(field.id, { projects: [alpha.id] })).status).toBe(200);
  });
});
