import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWebhookHarness, type WebhookHarness } from '../helpers/webhooks.ts';
import { type Browser, person } from '../helpers/people.ts';

type Person = Browser & { email: string; org: string };
// Records as the API answers them; the assertions check their shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

describe('audit log: projects, memberships, webhooks, and who reads what', () => {
  let h: WebhookHarness;
  let owner: Person;
  let admin: Person;
  let member: Person;
  let seen: number;
  let unseen: number;

  beforeAll(async () => {
    h = await createWebhookHarness({ allowPrivate: true });
    owner = await person(h, { role: 'owner' });
    admin = await person(h, { org: owner.org, role: 'admin' });
    member = await person(h, { org: owner.org, role: 'member' });
    const project = async (key: string) => {
      const res = await owner.request('POST', '/api/v1/projects/', { key, name: `Project ${key}` });
      expect(res.status, res.text).toBe(201);
      return res.body.data.id as number;
    };
    seen = await project('SEEN');
    unseen = await project('HIDDEN');
    h.clock.advance(60_000);
    const added = await owner.request('POST', '/api/v1/memberships/', {
      project: seen,
      user: admin.userId,
      role: 'member',
    });
    expect(added.status, added.text).toBe(201);
    const changed = await owner.request('PATCH', `/api/v1/memberships/${added.body.data.id}/`, { role: 'admin' });
    expect(changed.status, changed.text).toBe(200);
    const hook = await owner.request('POST', '/api/v1/webhooks/endpoints/', {
      url: 'https://hooks.test/hidden',
      project: unseen,
    });
    expect(hook.status, hook.text).toBe(201);
    const patch = (body: unknown) => owner.request('PATCH', `/api/v1/webhooks/endpoints/${hook.body.data.id}/`, body);
    expect((await patch({ description: 'CI' })).status).toBe(200);
    expect((await patch({ enabled: false })).status).toBe(200);
    expect((await patch({ enabled: true })).status).toBe(200);
    expect((await owner.request('DELETE', `/api/v1/webhooks/endpoints/${hook.body.data.id}/`)).status).toBe(204);
    h.clock.advance(60_000);
    expect((await owner.request('PATCH', `/api/v1/projects/${seen}/`, { name: 'Seen, renamed' })).status).toBe(200);
  });
  afterAll(() => h.close());

  const list = (who: Person, query = '') => who.request('GET', `/api/console/audit/${query}`);

  it('owners read every record, newest first, with the actor, the session, the target and before and after', async () => {
    const res = await list(owner, '?limit=200');
    expect(res.status, res.text).toBe(200);
    const records = res.body.data as Json[];
    expect(records.map((r) => r.id)).toEqual([...records.map((r) => r.id)].sort((a, b) => b - a));
    expect(records.map((r) => [r.action, r.project?.key ?? null]).reverse()).toEqual([
      ['sign_in.succeeded', null],
      ['sign_in.succeeded', null],
      ['sign_in.succeeded', null],
      ['project.created', 'SEEN'],
      ['project.created', 'HIDDEN'],
      ['membership.added', 'SEEN'],
      ['membership.changed', 'SEEN'],
      ['webhook.created', 'HIDDEN'],
      ['webhook.updated', 'HIDDEN'],
      ['webhook.disabled', 'HIDDEN'],
      ['webhook.enabled', 'HIDDEN'],
      ['webhook.deleted', 'HIDDEN'],
      ['project.updated', 'SEEN'],
    ]);
    const byAction = (action: string) => records.find((r) => r.action === action)!;
    expect(byAction('membership.changed')).toMatchObject({
      actor: { id: owner.userId },
      via: { source: 'app', session_id: owner.sessionId, token_id: null },
      target: { type: 'membership', name: expect.stringMatching(/ in SEEN$/) },
      before: { role: 'member', user: admin.userId },
      after: { role: 'admin', user: admin.userId },
      address: '127.0.0.1',
    });
    expect(byAction('webhook.updated')).toMatchObject({
      target: { type: 'webhook', name: 'https://hooks.test/hidden' },
      before: { description: '' },
      after: { description: 'CI' },
    });
    expect(byAction('webhook.disabled')).toMatchObject({
      before: { enabled: true, reason: null },
      after: { enabled: false, reason: 'Disabled through the API.' },
    });
    expect(byAction('project.updated')).toMatchObject({
      before: { name: 'Project SEEN' },
      after: { name: 'Seen, renamed' },
      target: { type: 'project', id: seen, name: 'SEEN Seen, renamed' },
    });
  });

  it('the correlation id of a record is the request id its events carry', async () => {
    const res = await owner.request(
      'PATCH',
      `/api/v1/projects/${seen}/`,
      { description: 'traced' },
      { 'x-request-id': 'trace-me-1' },
    );
    expect(res.status).toBe(200);
    const [record] = (await list(owner, '?action=project.updated&limit=1')).body.data;
    expect(record).toMatchObject({ correlation_id: 'trace-me-1', after: { description: 'traced' } });
    const event = await h.ctx.db
      .selectFrom('event_outbox')
      .select('correlation_id')
      .where('type', '=', 'project.updated')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(event.correlation_id).toBe('trace-me-1');
  });

  it('admins read the records of no project and of projects they see; members and guests read nothing', async () => {
    const res = await list(admin, '?limit=200');
    expect(res.status).toBe(200);
    const keys = new Set((res.body.data as Json[]).map((r) => r.project?.key ?? null));
    expect([...keys].sort()).toEqual(['SEEN', null].sort());
    expect((res.body.data as Json[]).some((r) => r.project?.id === unseen)).toBe(false);

    const refused = await list(member);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    const guest = await person(h, { org: owner.org, role: 'guest' });
    expect((await list(guest)).status).toBe(403);
    expect((await guest.request('GET', '/api/console/audit/export/?format=csv')).status).toBe(403);
  });

  it('filters by actor, action and time, and walks older records with the cursor', async () => {
    const byActor = await list(owner, `?actor=${admin.userId}&limit=200`);
    expect(byActor.body.data.map((r: { action: string }) => r.action)).toEqual(['sign_in.succeeded']);

    const byAction = await list(owner, '?action=webhook.enabled');
    expect(byAction.body.data).toHaveLength(1);

    // The project creations happened at the start; a minute later the rest.
    const early = await list(owner, '?to=2026-11-21T09:00:30Z&limit=200');
    expect(early.body.data.map((r: { action: string }) => r.action).reverse()).toEqual([
      'sign_in.succeeded',
      'sign_in.succeeded',
      'sign_in.succeeded',
      'project.created',
      'project.created',
    ]);
    const late = await list(owner, '?from=2026-11-21T09:02:00Z&action=project.updated&limit=200');
    expect(late.body.data).toHaveLength(2);

    const all = (await list(owner, '?limit=200')).body.data.map((r: { id: number }) => r.id);
    const walked: number[] = [];
    let cursor = '';
    for (;;) {
      const page = await list(owner, `?limit=4&cursor=${cursor}`);
      expect(page.status).toBe(200);
      walked.push(...page.body.data.map((r: { id: number }) => r.id));
      if (!page.body.pagination.has_more) break;
      cursor = page.body.pagination.next_cursor;
    }
    expect(walked).toEqual(all);
  });

  it('refuses bad filters with the error shape', async () => {
    for (const query of [
      '?action=person.exploded',
      '?from=yesterday',
      '?actor=0',
      '?cursor=%%%',
      '?limit=500',
      '?x=1',
    ]) {
      const res = await list(owner, query);
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('exports what the list shows as CSV or JSON lines, under the same rules', async () => {
    const listed = (await list(owner, '?limit=200')).body.data;
    const jsonl = await owner.request('GET', '/api/console/audit/export/?format=jsonl');
    expect(jsonl.status).toBe(200);
    expect(jsonl.headers['content-type']).toBe('application/jsonl; charset=utf-8');
    expect(jsonl.headers['content-disposition']).toBe(`attachment; filename="audit-${owner.org}-2026-11-21.jsonl"`);
    expect(
      jsonl.text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(listed);

    const csv = await admin.request('GET', '/api/console/audit/export/?format=csv&action=membership.changed');
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const [header, row, end] = csv.text.split('\r\n');
    expect(header).toBe(
      'id,occurred_at,action,actor_id,actor_name,source,token_id,session_id,target_type,target_id,target_name,project_id,project_key,before,after,address,correlation_id',
    );
    const record = listed.find((r: { action: string }) => r.action === 'membership.changed');
    expect(row).toBe(
      [
        record.id,
        record.occurred_at,
        'membership.changed',
        owner.userId,
        record.actor.name,
        'app',
        '',
        owner.sessionId,
        'membership',
        record.target.id,
        record.target.name,
        seen,
        'SEEN',
        `"{""role"":""member"",""user"":${admin.userId}}"`,
        `"{""role"":""admin"",""user"":${admin.userId}}"`,
        '127.0.0.1',
        record.correlation_id,
      ].join(','),
    );
    expect(end).toBe('');
  });

  it('a name a spreadsheet would run as a formula is exported as text', async () => {
    const bot = await owner.request('POST', '/api/console/service-accounts/', {
      name: '=HYPERLINK("x")',
      role: 'member',
    });
    expect(bot.status).toBe(201);
    const csv = await owner.request('GET', '/api/console/audit/export/?format=csv&action=service_account.created');
    expect(csv.text.split('\r\n')[1]).toContain(`,person,${bot.body.data.id},"'=HYPERLINK(""x"")",`);
  });

  it('records workflow, custom field and standup settings changes', async () => {
    const workflow = await owner.request('POST', '/api/v1/workflows/', { project: seen, name: 'Kanban' });
    expect(workflow.status, workflow.text).toBe(201);
    const id = workflow.body.data.id;
    expect((await owner.request('PUT', `/api/v1/workflows/${id}/`, { name: 'Kanban 2' })).status).toBe(200);
    expect((await owner.request('DELETE', `/api/v1/workflows/${id}/`)).status).toBe(204);
    const field = await owner.request('POST', '/api/v1/custom-fields/', {
      name: 'Severity',
      type: 'select',
      options: ['low', 'high'],
    });
    expect(field.status, field.text).toBe(201);
    const fieldId = field.body.data.id;
    expect((await owner.request('PUT', `/api/v1/custom-fields/${fieldId}/`, { required: true })).status).toBe(200);
    expect((await owner.request('DELETE', `/api/v1/custom-fields/${fieldId}/`)).status).toBe(204);
    const settings = await owner.request('PATCH', '/api/v1/standups/settings/', { timezone: 'Europe/Berlin' });
    expect(settings.status, settings.text).toBe(200);

    const records = (await list(owner, '?limit=7')).body.data.reverse() as Json[];
    expect(records.map((r) => [r.action, r.target?.name, r.project?.key ?? null, r.before, r.after])).toEqual(
      [
        ['workflow.created', 'Kanban', 'SEEN', null, { name: 'Kanban', description: '', active: false }],
        ['workflow.updated', 'Kanban 2', 'SEEN', { name: 'Kanban' }, { name: 'Kanban 2' }],
        ['workflow.deleted', 'Kanban 2', 'SEEN', { name: 'Kanban 2', description: '' }, null],
        [
          'custom_field.created',
          'Severity',
          null,
          null,
          {
            name: 'Severity',
            type: 'select',
            description: '',
            required: false,
            projects: null,
            options: ['low', 'high'],
          },
        ],
        ['custom_field.updated', 'Severity', null, { required: false }, { required: true }],
        ['custom_field.deleted', 'Severity', null, { name: 'Severity', type: 'select' }, null],
        ['settings.updated', 'Standups', null, { timezone: 'UTC' }, { timezone: 'Europe/Berlin' }],
      ].slice(-8),
    );
  });

  it('records status and transition changes, status reorders, and option renames and reorders', async () => {
    const request = async (method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => {
      const res = await owner.request(method, url, body);
      expect(res.status, res.text).toBeLessThan(300);
      return res.body?.data as Json;
    };
    const status = await request('POST', '/api/v1/statuses/', {
      project: seen,
      name: 'Review',
      category: 'in_progress',
    });
    await request('PUT', `/api/v1/statuses/${status.id}/`, { name: 'In review' });
    const order = (await owner.request('GET', `/api/v1/statuses/?project=${seen}&limit=100`)).body.data as Json[];
    const names = order.map((s) => s.name as string);
    await request('POST', '/api/v1/statuses/reorder/', {
      project: seen,
      statuses: [status.id, ...order.filter((s) => s.id !== status.id).map((s) => s.id)],
    });
    const workflow = await request('POST', '/api/v1/workflows/', { project: seen, name: 'Review flow' });
    const transition = await request('POST', '/api/v1/transitions/', {
      workflow: workflow.id,
      from_status: order[0]!.id,
      to_status: status.id,
      name: 'Ask for review',
    });
    await request('PUT', `/api/v1/transitions/${transition.id}/`, { name: 'Send to review' });
    await request('DELETE', `/api/v1/transitions/${transition.id}/`);
    await request('DELETE', `/api/v1/workflows/${workflow.id}/`);
    await request('DELETE', `/api/v1/statuses/${status.id}/`);
    const field = await request('POST', '/api/v1/custom-fields/', {
      name: 'Size',
      type: 'select',
      options: ['S', 'M'],
    });
    const [small, medium] = field.options as Json[];
    await request('PUT', `/api/v1/custom-fields/options/${small!.id}/`, { value: 'Small' });
    await request('POST', '/api/v1/custom-fields/reorder/', { field: field.id, options: [medium!.id, small!.id] });

    const records = (await list(owner, '?limit=12')).body.data.reverse() as Json[];
    expect(
      records.map((r) => [r.action, r.target?.type, r.target?.name, r.project?.key ?? null, r.before, r.after]),
    ).toEqual([
      [
        'status.created',
        'status',
        'Review',
        'SEEN',
        null,
        { name: 'Review', category: 'in_progress', position: names.length - 1 },
      ],
      ['status.updated', 'status', 'In review', 'SEEN', { name: 'Review' }, { name: 'In review' }],
      [
        'status.reordered',
        'project',
        'SEEN Seen, renamed',
        'SEEN',
        { order: names },
        { order: ['In review', ...names.filter((n) => n !== 'In review')] },
      ],
      [
        'workflow.created',
        'workflow',
        'Review flow',
        'SEEN',
        null,
        { name: 'Review flow', description: '', active: false },
      ],
      [
        'transition.created',
        'transition',
        'Ask for review',
        'SEEN',
        null,
        { workflow: 'Review flow', name: 'Ask for review', from: order[0]!.name, to: 'In review' },
      ],
      [
        'transition.updated',
        'transition',
        'Send to review',
        'SEEN',
        { name: 'Ask for review' },
        { name: 'Send to review' },
      ],
      [
        'transition.deleted',
        'transition',
        'Send to review',
        'SEEN',
        { name: 'Send to review', from: order[0]!.name, to: 'In review' },
        null,
      ],
      ['workflow.deleted', 'workflow', 'Review flow', 'SEEN', { name: 'Review flow', description: '' }, null],
      ['status.deleted', 'status', 'In review', 'SEEN', { name: 'In review', category: 'in_progress' }, null],
      expect.arrayContaining(['custom_field.created']),
      ['custom_field.updated', 'custom_field', 'Size', null, { options: ['S', 'M'] }, { options: ['Small', 'M'] }],
      ['custom_field.updated', 'custom_field', 'Size', null, { options: ['Small', 'M'] }, { options: ['M', 'Small'] }],
    ]);

    // A refused change records nothing: the record is written in the change's own transaction.
    const fallback = order.find((s) => s.is_default)!;
    expect((await owner.request('DELETE', `/api/v1/statuses/${fallback.id}/`)).status).toBe(409);
    expect((await list(owner, '?limit=1')).body.data[0].id).toBe(records.at(-1)!.id);
  });

  it('has no way to change or delete a record, and deleting a project keeps its records', async () => {
    const [record] = (await list(owner, '?limit=1')).body.data;
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      expect((await owner.request(method, '/api/console/audit/', {})).status).toBe(405);
      expect((await owner.request(method, `/api/console/audit/${record.id}/`, {})).status).toBe(404);
    }
    const before = (await list(owner, '?limit=200')).body.data.filter(
      (r: { project: { id: number } | null }) => r.project?.id === unseen,
    );
    expect((await owner.request('DELETE', `/api/v1/projects/${unseen}/`)).status).toBe(204);
    const after = (await list(owner, '?limit=200')).body.data.filter(
      (r: { project: { id: number } | null }) => r.project?.id === unseen,
    );
    expect(after[0]).toMatchObject({
      action: 'project.deleted',
      target: { type: 'project', id: unseen, name: 'HIDDEN Project HIDDEN' },
      project: { id: unseen, key: null },
      before: { key: 'HIDDEN', name: 'Project HIDDEN' },
    });
    expect(after.slice(1).map((r: { id: number }) => r.id)).toEqual(before.map((r: { id: number }) => r.id));
  });
});
