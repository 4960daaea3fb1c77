import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomFieldCreateInput, CustomFieldJson } from '../../src/modules/custom-fields/custom-fields.schemas.ts';
import { createField, getField, updateField } from '../../src/modules/custom-fields/custom-fields.service.ts';
import { createMembership, deleteMembership } from '../../src/modules/projects/memberships.service.ts';
import { bulkUpdate } from '../../src/modules/tasks/task-bulk.service.ts';
import { createSubtask, createTask, updateTask } from '../../src/modules/tasks/task-lifecycle.service.ts';
import { getTask } from '../../src/modules/tasks/task-read.service.ts';
import type { TaskUpdateInput } from '../../src/modules/tasks/task.schemas.ts';
import type { Caller } from '../../src/identity/caller.ts';
import { refusal, serviceWorld, type ServiceWorld } from '../helpers/services.ts';
import { customValueRows } from '../helpers/storage.ts';

/**
 * The rules a custom field value must keep, through the custom field and task services: what
 * each type accepts and how it is stored, the exact refusal of everything else, and that a
 * refusal changes nothing. The HTTP side (status codes, history, concurrency) is in
 * tests/api/custom-fields-values.test.ts.
 */
describe('custom field values (services)', () => {
  let w: ServiceWorld;
  let admin: Caller & { org: string };
  let member: Caller;
  /** In the workspace, but a member of no project. */
  let outsider: Caller;
  let vals: number;
  const fieldIds: number[] = [];

  const userOf = (caller: Caller) => caller.principal.userId;
  const join = (project: number, who: Caller) =>
    w.run(admin, (tx, caller) => createMembership(tx, caller, { project, user: userOf(who) }));

  beforeAll(async () => {
    w = await serviceWorld();
    admin = await w.caller();
    member = await w.caller({ org: admin.org, role: 'member' });
    outsider = await w.caller({ org: admin.org, role: 'member' });
    vals = (await w.project(admin, 'VALS')).id;
    await join(vals, member);
  });
  afterAll(() => w.close());

  let counter = 0;
  /** A definition created by the workspace admin; it applies to VALS unless `projects` says otherwise. */
  async function field(
    type: CustomFieldCreateInput['type'],
    extra: Partial<CustomFieldCreateInput> = {},
  ): Promise<CustomFieldJson> {
    const created = await w.run(admin, (tx, caller) =>
      createField(tx, caller.principal, { name: `${type} ${++counter}`, type, projects: [vals], ...extra }),
    );
    fieldIds.push(created.id);
    return created;
  }
  const optionIds = (f: CustomFieldJson) => f.options.map((o) => o.id);
  const create = async (projectKey: string, customFields?: Record<string, unknown>) =>
    (
      await w.run(admin, (tx, caller) =>
        createTask(tx, caller, projectKey, {
          title: 'A task',
          ...(customFields ? { custom_fields: customFields } : {}),
        }),
      )
    ).task;
  const update = async (key: string, input: TaskUpdateInput) =>
    (await w.run(admin, (tx, caller) => updateTask(tx, caller, key, input))).task;
  const setValue = (key: string, id: number, value: unknown) => update(key, { custom_fields: { [id]: value } });
  const read = (key: string) => getTask(w.ctx, key, async () => admin.principal);
  const stored = () => customValueRows(w, fieldIds);
  const refused = (fields: Record<string, string>) => ({ code: 'VALIDATION_ERROR', details: { fields } });
  const refusedValue = (f: { id: number; name: string }, reason: string) =>
    refused({ [`custom_fields.${f.id}`]: `"${f.name}" ${reason}` });

  /** How `work` is refused, after checking that the task (`key`, when given: values and version) and every stored value are as before. */
  async function refusedUnchanged(work: () => Promise<unknown>, key?: string) {
    const before = { task: key === undefined ? null : await read(key), rows: await stored() };
    const answer = await refusal(work());
    expect({ task: key === undefined ? null : await read(key), rows: await stored() }).toEqual(before);
    return answer;
  }

  const same = (...values: unknown[]): Array<[unknown, unknown]> => values.map((value) => [value, value]);
  const urlOfLength = (length: number) => `https://example.com/${'a'.repeat(length - 'https://example.com/'.length)}`;

  it('each type stores what it accepts exactly as it reads back; multi_select as a set sorted by option id', async () => {
    const select = await field('select', { options: ['A', 'B'] });
    const multi = await field('multi_select', { options: ['X', 'Y', 'Z'] });
    const [a, b] = optionIds(select);
    const [x, y, z] = optionIds(multi) as [number, number, number];
    const table: Array<[CustomFieldJson, Array<[sent: unknown, kept: unknown]>]> = [
      [
        await field('text'),
        same('hello', ' ', '  padded\nlines  ', 'naïve 🙂 <b>&amp;</b>', '"quoted" \\ back', 'x'.repeat(10_000)),
      ],
      [
        await field('number'),
        same(0, 42, -3.5, 0.1 + 0.2, -1e-7, 1e21, 5e-324, Number.MAX_SAFE_INTEGER, Number.MAX_VALUE, -Number.MAX_VALUE),
      ],
      [await field('date'), same('2024-02-29', '1970-01-01', '1000-01-01', '0050-06-15', '9999-12-31')],
      [await field('boolean'), same(false, true)],
      [
        await field('url'),
        same('https://example.com/a?b=1#c', 'http://intranet:8080/x', 'HTTP://Example.COM/Path', urlOfLength(2048)),
      ],
      [await field('user'), same(userOf(admin), userOf(member))],
      [select, same(a, b)],
      [
        multi,
        [
          [
            [z, x],
            [x, z],
          ],
          [[y], [y]],
          [
            [z, y, x],
            [x, y, z],
          ],
        ],
      ],
    ];

    const task = await create('VALS');
    for (const [f, values] of table) {
      for (const [sent, kept] of values) {
        const what = `${f.type} ${JSON.stringify(sent)}`;
        expect((await setValue(task.key, f.id, sent)).custom_fields[f.id], what).toStrictEqual(kept);
        expect((await read(task.key)).task.custom_fields[f.id], what).toStrictEqual(kept);
        expect(
          (await customValueRows(w, [f.id])).map((row) => row.value),
          what,
        ).toEqual([JSON.stringify(kept)]);
      }
    }

    // All at once on create, too.
    const lastOfEach = Object.fromEntries(table.map(([f, values]) => [f.id, values.at(-1)!]));
    const created = await create(
      'VALS',
      Object.fromEntries(Object.entries(lastOfEach).map(([id, [sent]]) => [id, sent])),
    );
    const kept = Object.fromEntries(Object.entries(lastOfEach).map(([id, [, value]]) => [id, value]));
    expect(created.custom_fields).toStrictEqual(kept);
    expect((await read(created.key)).task.custom_fields).toStrictEqual(kept);
  });

  it('each type refuses every other value with its own reason under custom_fields.<id>, and nothing changes', async () => {
    const text = await field('text');
    const number = await field('number');
    const date = await field('date');
    const boolean = await field('boolean');
    const url = await field('url');
    const user = await field('user');
    const select = await field('select', { options: ['A', 'B'] });
    const multi = await field('multi_select', { options: ['X', 'Y'] });
    const foreign = optionIds(await field('select', { options: ['of another field'] }))[0]!;
    const [a] = optionIds(select) as [number];
    const [x, y] = optionIds(multi) as [number, number];
    const task = await create('VALS', {
      [text.id]: 'kept',
      [number.id]: 7,
      [date.id]: '2026-01-02',
      [boolean.id]: false,
      [url.id]: 'https://example.com/',
      [user.id]: userOf(member),
      [select.id]: a,
      [multi.id]: [x, y],
    });

    const cases: Array<[CustomFieldJson, unknown[], string]> = [
      [text, [5, true, ['a'], { a: 1 }], 'must be a string'],
      [text, ['x'.repeat(10_001)], 'must be at most 10000 characters'],
      [
        number,
        ['5', '', true, [1], {}, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
        'must be a finite number',
      ],
      [
        date,
        [
          '2026-02-30',
          '2023-02-29',
          '2026-13-01',
          '2026-00-10',
          '2026-2-3',
          '2026-02-28T00:00:00Z',
          ' 2026-02-28',
          '',
          20260228,
        ],
        'must be a date, YYYY-MM-DD',
      ],
      [boolean, [0, 1, 'true', 'yes', '', []], 'must be true or false'],
      [
        url,
        [
          'ftp://example.com',
          'example.com',
          '/relative',
          'javascript:alert(1)',
          'mailto:a@b.c',
          'https://',
          'http//x',
          urlOfLength(2049),
          '',
          5,
        ],
        'must be an http or https URL of at most 2048 characters',
      ],
      [user, [0, -1, 1.5, String(userOf(member)), 2147483648, [userOf(member)], ''], 'must be a user id'],
      [select, [0, -1, 1.5, String(a), [a], '', true], 'must be an option id of this field'],
      [select, [foreign], `${foreign} is not an option of this field`],
      [select, [999999], '999999 is not an option of this field'],
      [multi, [x, [String(x)], [0], [1.5], [x, null], {}, ''], 'must be a list of option ids of this field'],
      [
        multi,
        [
          [x, x],
          [y, x, y],
        ],
        'must not repeat an option',
      ],
      [multi, [[x, foreign, 999999]], `not options of this field: ${foreign}, 999999`],
    ];
    for (const [f, values, reason] of cases) {
      for (const value of values) {
        expect(
          await refusedUnchanged(() => setValue(task.key, f.id, value), task.key),
          `${f.type} ${JSON.stringify(value)}`,
        ).toEqual(refusedValue(f, reason));
      }
    }
    // A user id must also be a member of the task's project.
    for (const id of [userOf(outsider), 999999]) {
      expect(await refusedUnchanged(() => setValue(task.key, user.id, id), task.key)).toEqual(
        refused({ [`custom_fields.${user.id}`]: `"${user.name}": user ${id} is not a member of this project` }),
      );
    }
  });

  it('every problem of one write is reported at once, and none of the write is applied', async () => {
    const text = await field('text');
    const number = await field('number');
    const select = await field('select', { options: ['A'] });
    const elsewhere = await field('text', { name: 'Elsewhere', projects: [] });
    const task = await create('VALS', { [text.id]: 'before' });
    const write = {
      title: 'changed',
      custom_fields: { [text.id]: 'after', [number.id]: 'NaN', [select.id]: 999999, [elsewhere.id]: 'x', 999999: 1 },
    };
    expect(await refusedUnchanged(() => update(task.key, write), task.key)).toEqual(
      refused({
        [`custom_fields.${number.id}`]: `"${number.name}" must be a finite number`,
        [`custom_fields.${select.id}`]: `"${select.name}" 999999 is not an option of this field`,
        [`custom_fields.${elsewhere.id}`]: 'the field "Elsewhere" does not apply to this project',
        'custom_fields.999999': 'no custom field 999999 in this workspace',
      }),
    );
    expect((await read(task.key)).task).toMatchObject({ title: 'A task', custom_fields: { [text.id]: 'before' } });
  });

  it('null clears every type, "" clears text and [] multi_select; false and 0 are values; only the fields sent change', async () => {
    const text = await field('text');
    const number = await field('number');
    const boolean = await field('boolean');
    const multi = await field('multi_select', { options: ['X'] });
    const [x] = optionIds(multi);
    const others = [
      await field('date'),
      await field('url'),
      await field('user'),
      await field('select', { options: ['A'] }),
    ];
    const [date, url, user, select] = others as [CustomFieldJson, CustomFieldJson, CustomFieldJson, CustomFieldJson];
    const values = {
      [text.id]: 't',
      [number.id]: 0,
      [boolean.id]: false,
      [multi.id]: [x],
      [date.id]: '2026-01-01',
      [url.id]: 'https://e.com',
      [user.id]: userOf(admin),
      [select.id]: select.options[0]!.id,
    };
    const ids = Object.keys(values).map(Number);

    const task = await create('VALS', values);
    expect(task.custom_fields).toStrictEqual(values);
    const { version } = await read(task.key);
    expect(
      (await update(task.key, { custom_fields: Object.fromEntries(ids.map((id) => [id, null])) })).custom_fields,
    ).toEqual({});
    expect(await customValueRows(w, ids)).toEqual([]);
    expect((await read(task.key)).version).toBe(version + 1);
    // Clearing what is not set, and sending what is stored, change nothing (no new version).
    expect(
      (await update(task.key, { custom_fields: { [text.id]: null, [multi.id]: [], [number.id]: null } })).custom_fields,
    ).toEqual({});
    expect((await read(task.key)).version).toBe(version + 1);

    await update(task.key, { custom_fields: { [text.id]: 'a', [multi.id]: [x], [number.id]: 1 } });
    expect((await update(task.key, { custom_fields: { [text.id]: '', [multi.id]: [] } })).custom_fields).toEqual({
      [number.id]: 1,
    });
    expect((await update(task.key, { custom_fields: { [number.id]: 1 } })).custom_fields).toEqual({ [number.id]: 1 });
    expect((await read(task.key)).version).toBe(version + 3);

    // On create, a cleared value is no value.
    const blank = await create('VALS', { [text.id]: '', [multi.id]: [], [number.id]: null, [boolean.id]: null });
    expect(blank.custom_fields).toEqual({});
    expect((await read(blank.key)).task.custom_fields).toEqual({});
  });

  it("a field must apply to the task's project and be one of the workspace's, on create and on update", async () => {
    await w.project(admin, 'APPLY');
    const onlyVals = await field('text', { name: 'Vals only' });
    const nowhere = await field('text', { name: 'Nowhere', projects: [] });
    const everywhere = await field('text', { name: 'Everywhere', projects: null });
    const stranger = await w.caller();
    const theirs = await w.run(stranger, (tx, caller) =>
      createField(tx, caller.principal, { name: 'Theirs', type: 'text' }),
    );
    const task = await create('APPLY');

    const refusals: Array<[number, string]> = [
      [onlyVals.id, 'the field "Vals only" does not apply to this project'],
      [nowhere.id, 'the field "Nowhere" does not apply to this project'],
      [theirs.id, `no custom field ${theirs.id} in this workspace`],
      [999999, 'no custom field 999999 in this workspace'],
      // Beyond the integer range of ids: never looked up.
      [9999999999, 'no custom field 9999999999 in this workspace'],
    ];
    for (const [id, reason] of refusals) {
      expect(await refusedUnchanged(() => setValue(task.key, id, 'x'), task.key), String(id)).toEqual(
        refused({ [`custom_fields.${id}`]: reason }),
      );
      expect(await refusedUnchanged(() => create('APPLY', { [id]: 'x' })), String(id)).toEqual(
        refused({ [`custom_fields.${id}`]: reason }),
      );
      // Clearing is refused alike: there is nothing of it to clear.
      expect(await refusedUnchanged(() => setValue(task.key, id, null), task.key), String(id)).toEqual(
        refused({ [`custom_fields.${id}`]: reason }),
      );
    }
    expect((await setValue(task.key, everywhere.id, 'x')).custom_fields).toEqual({ [everywhere.id]: 'x' });
    // The refused creates took no task number.
    expect((await create('APPLY')).key).toBe('APPLY-2');
  });

  it('a field applying only to projects the caller cannot see is answered like an unknown one, its name unsaid', async () => {
    const hidden = (await w.project(admin, 'HIDDEN')).id;
    const shared = (await w.project(admin, 'SHARED')).id;
    await join(shared, member);
    const secret = await field('text', { name: 'Secret plan', projects: [hidden] });
    const seen = await field('text', { name: 'Seen', projects: [hidden, shared] });
    const task = await create('VALS');
    const asMember = (custom_fields: Record<string, unknown>) =>
      w.run(member, (tx, caller) => updateTask(tx, caller, task.key, { custom_fields }));
    expect(await refusedUnchanged(() => asMember({ [secret.id]: 'x' }), task.key)).toEqual(
      refused({ [`custom_fields.${secret.id}`]: `no custom field ${secret.id} in this workspace` }),
    );
    expect(
      await refusedUnchanged(() =>
        w.run(member, (tx, caller) =>
          createTask(tx, caller, 'VALS', { title: 't', custom_fields: { [secret.id]: 'x' } }),
        ),
      ),
    ).toEqual(refused({ [`custom_fields.${secret.id}`]: `no custom field ${secret.id} in this workspace` }));
    // The workspace admin sees every project, so it is told why.
    expect(await refusedUnchanged(() => update(task.key, { custom_fields: { [secret.id]: 'x' } }), task.key)).toEqual(
      refused({ [`custom_fields.${secret.id}`]: 'the field "Secret plan" does not apply to this project' }),
    );
    // A definition the caller sees through another project is named.
    expect(await refusedUnchanged(() => asMember({ [seen.id]: 'x', [secret.id]: 'x' }), task.key)).toEqual(
      refused({
        [`custom_fields.${seen.id}`]: 'the field "Seen" does not apply to this project',
        [`custom_fields.${secret.id}`]: `no custom field ${secret.id} in this workspace`,
      }),
    );
  });

  it('a required field must get a value on create and can never be cleared; it binds only the projects it applies to', async () => {
    const req = (await w.project(admin, 'REQ')).id;
    const required = await field('text', { name: 'Must have', required: true, projects: [req] });
    const requiredMulti = await field('multi_select', {
      name: 'Pick some',
      required: true,
      projects: [req],
      options: ['p', 'q'],
    });
    const number = await field('number', { projects: [req] });
    const [p] = optionIds(requiredMulti) as [number];
    const missing = {
      [`custom_fields.${required.id}`]: '"Must have" is required',
      [`custom_fields.${requiredMulti.id}`]: '"Pick some" is required',
    };

    expect(await refusedUnchanged(() => create('REQ'))).toEqual(refused(missing));
    expect(await refusedUnchanged(() => create('REQ', { [required.id]: null, [requiredMulti.id]: [] }))).toEqual(
      refused(missing),
    );
    expect(await refusedUnchanged(() => create('REQ', { [required.id]: '', [requiredMulti.id]: [p] }))).toEqual(
      refused({ [`custom_fields.${required.id}`]: '"Must have" is required' }),
    );
    // A bad value is reported as bad rather than as missing, beside the other problems.
    expect(await refusedUnchanged(() => create('REQ', { [required.id]: 5, [number.id]: 'x' }))).toEqual(
      refused({
        [`custom_fields.${required.id}`]: '"Must have" must be a string',
        [`custom_fields.${requiredMulti.id}`]: '"Pick some" is required',
        [`custom_fields.${number.id}`]: `"${number.name}" must be a finite number`,
      }),
    );

    const task = await create('REQ', { [required.id]: 'v', [requiredMulti.id]: [p] });
    expect(task.key).toBe('REQ-1');
    const clears: Array<[CustomFieldJson, unknown]> = [
      [required, null],
      [required, ''],
      [requiredMulti, null],
      [requiredMulti, []],
    ];
    for (const [f, value] of clears) {
      expect(
        await refusedUnchanged(() => setValue(task.key, f.id, value), task.key),
        `${f.name} ${JSON.stringify(value)}`,
      ).toEqual(refusedValue(f, 'is required and cannot be cleared'));
    }
    expect((await update(task.key, { title: 'renamed' })).custom_fields).toEqual({
      [required.id]: 'v',
      [requiredMulti.id]: [p],
    });
    expect((await setValue(task.key, required.id, 'w')).custom_fields[required.id]).toBe('w');
    expect(
      await refusedUnchanged(() => w.run(admin, (tx, caller) => createSubtask(tx, caller, task.key, { title: 'sub' }))),
    ).toEqual(refused(missing));

    // A requirement added later binds new tasks; older tasks keep working until someone sets the field.
    const later = await field('text', { name: 'Later', projects: [req] });
    await w.run(admin, (tx, caller) => updateField(tx, caller.principal, later.id, { required: true }));
    expect((await update(task.key, { title: 'renamed again' })).title).toBe('renamed again');
    expect(await refusedUnchanged(() => create('REQ', { [required.id]: 'v', [requiredMulti.id]: [p] }))).toEqual(
      refused({ [`custom_fields.${later.id}`]: '"Later" is required' }),
    );

    // Projects the fields do not apply to are not bound.
    expect((await create('VALS')).custom_fields).toEqual({});
  });

  it('a user value must be a member of the project when it changes; a kept value outlives the membership', async () => {
    const user = await field('user', { name: 'Owner' });
    const leaving = await w.caller({ org: admin.org, role: 'member' });
    const membership = await join(vals, leaving);
    const task = await create('VALS', { [user.id]: userOf(leaving) });
    await w.run(admin, (tx, caller) => deleteMembership(tx, caller, membership.id));

    expect(
      (await update(task.key, { title: 'still fine', custom_fields: { [user.id]: userOf(leaving) } })).custom_fields,
    ).toEqual({ [user.id]: userOf(leaving) });
    const notMember = refused({
      [`custom_fields.${user.id}`]: `"Owner": user ${userOf(leaving)} is not a member of this project`,
    });
    const fresh = await create('VALS');
    expect(await refusedUnchanged(() => setValue(fresh.key, user.id, userOf(leaving)), fresh.key)).toEqual(notMember);
    expect(await refusedUnchanged(() => create('VALS', { [user.id]: userOf(leaving) }))).toEqual(notMember);
  });

  it('bulk update refuses every item with a bad value, by index, and applies none', async () => {
    const number = await field('number');
    const [one, two, three] = [await create('VALS', { [number.id]: 1 }), await create('VALS'), await create('VALS')];
    const items = [
      { key: one.key, custom_fields: { [number.id]: 2 } },
      { key: two.key, custom_fields: { [number.id]: 'two' } },
      { key: three.key, custom_fields: { 999999: 3 } },
    ];
    expect(
      await refusedUnchanged(() => w.run(admin, (tx, caller) => bulkUpdate(tx, caller, 'VALS', items)), one.key),
    ).toEqual({
      code: 'VALIDATION_ERROR',
      details: {
        items: [
          {
            index: 1,
            key: two.key,
            code: 'VALIDATION_ERROR',
            message: `Invalid custom_fields.${number.id}.`,
            fields: { [`custom_fields.${number.id}`]: `"${number.name}" must be a finite number` },
          },
          {
            index: 2,
            key: three.key,
            code: 'VALIDATION_ERROR',
            message: 'Invalid custom_fields.999999.',
            fields: { 'custom_fields.999999': 'no custom field 999999 in this workspace' },
          },
        ],
      },
    });
  });

  it('a definition change that would strand stored values is refused, and the definition and values stay as they were', async () => {
    const select = await field('select', { options: ['Keep', 'Used', 'Unused'] });
    const multi = await field('multi_select', { options: ['m1', 'm2'] });
    const [keep, used] = optionIds(select);
    const [m1, m2] = optionIds(multi);
    await create('VALS', { [select.id]: used, [multi.id]: [m1, m2] });
    await create('VALS', { [select.id]: used, [multi.id]: [m2] });
    const change = (id: number, input: Parameters<typeof updateField>[3]) =>
      w.run(admin, (tx, caller) => updateField(tx, caller.principal, id, input));
    const other = (await w.project(admin, 'NARROW')).id;

    expect(await refusedUnchanged(() => change(select.id, { options: [{ id: keep! }, 'New'] }))).toEqual({
      code: 'OPTION_IN_USE',
      details: { task_count: 2, options: [used] },
    });
    expect(await refusedUnchanged(() => change(multi.id, { options: [{ id: m1! }] }))).toEqual({
      code: 'OPTION_IN_USE',
      details: { task_count: 2, options: [m2] },
    });
    expect(await refusedUnchanged(() => change(select.id, { projects: [other], name: 'Renamed' }))).toEqual({
      code: 'FIELD_IN_USE',
      details: { task_count: 2 },
    });
    expect(await getField(w.ctx, admin.principal, select.id)).toEqual(select);
    expect(await getField(w.ctx, admin.principal, multi.id)).toEqual(multi);
  });
});
