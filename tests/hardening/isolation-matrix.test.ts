import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildWorld, MARKER, MISSING, probeFor, type Probe, type World } from './world.ts';

interface Operation {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
}

/** Custom field definitions are workspace objects: a token restricted to projects, or a workspace member, cannot write them (403 before any lookup). */
const WORKSPACE_WIDE = /^\/api\/v1\/custom-fields\//;

/**
 * Generated from the published OpenAPI document so a new route cannot escape it: every route
 * that names a project-scoped row, pointed at project B's row, answers a token restricted to
 * project A and an admin of another organization exactly as it answers for a row that does not
 * exist; and no read, pointed at data the caller may see, ever shows one of B's strings.
 */
describe('isolation matrix: every route × {restricted token, other organization, workspace admin outside B, member of A only}', () => {
  let w: World;
  let operations: Operation[];
  let probes = 0;

  beforeAll(async () => {
    w = await buildWorld();
    const doc = (await w.h.request('GET', '/api/v1/openapi.json')).body;
    operations = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => ({ method: method.toUpperCase() as Operation['method'], path })),
    );
  }, 60_000);
  afterAll(async () => {
    console.info(`isolation matrix: ${operations.length} operations, ${probes} probes`);
    await w.h.close();
  });

  /** Everyone who sees A but not B, or nothing of the organization. */
  const callers = () =>
    [
      ['restricted', w.restricted],
      ['outsider', w.outsider.token],
      ['workspace admin outside B', w.workspaceAdmin.token],
      ['member of A only', w.memberOfA.token],
    ] as const;

  const send = (op: Operation, token: string, probe: Probe) => {
    probes++;
    const body = probe.body ?? (op.method === 'GET' || op.method === 'DELETE' ? undefined : {});
    return w.h.request(op.method, probe.url, { token, body, headers: probe.headers });
  };

  it('every operation has a binding for its path parameters', () => {
    for (const op of operations)
      expect(() => probeFor(op.method, op.path, w.b), `${op.method} ${op.path}`).not.toThrow();
  });

  it("B's row answers exactly like a row that does not exist (404, same body), for both callers", async () => {
    const checked: string[] = [];
    const failures: string[] = [];
    // Errors may echo the key or id the caller sent ("Task ZZZ-1 not found.", "Project not found: 3."): the same shape either way.
    const shape = (res: { status: number; text: string }) => ({
      status: res.status,
      body: res.status < 400 ? res.text : res.text.replace(/\b(BBB|ZZZ)(-\d+)?\b/g, '<key>').replace(/\b\d+\b/g, '<n>'),
    });
    for (const op of operations) {
      const invisible = probeFor(op.method, op.path, w.b);
      if (invisible.ref === 'none') continue;
      const missing = probeFor(op.method, op.path, MISSING);
      for (const [who, token] of callers()) {
        // Writing definitions is refused (403) to both before any lookup, whatever the target.
        if ((who === 'restricted' || who === 'member of A only') && WORKSPACE_WIDE.test(op.path) && op.method !== 'GET')
          continue;
        const label = `${who} ${op.method} ${invisible.url}`;
        const gone = await send(op, token, missing);
        const hidden = await send(op, token, invisible);
        if (invisible.ref === 'path' && gone.status !== 404) {
          failures.push(`${label}: a missing row answers ${gone.status} ${gone.text}`);
        }
        const [a, b] = [shape(hidden), shape(gone)];
        if (a.status !== b.status || a.body !== b.body)
          failures.push(`${label}: ${a.status} ${a.body} ≠ missing ${b.status} ${b.body}`);
        if (hidden.text.includes(MARKER)) failures.push(`${label}: shows ${MARKER}`);
        checked.push(label);
      }
    }
    expect(failures).toEqual([]);
    expect(checked.length).toBeGreaterThan(100);
  }, 180_000);

  it("custom fields never list project B's id, and one applying only to B is a 404", async () => {
    for (const [who, token] of callers()) {
      for (const url of [`/api/v1/custom-fields/`, `/api/v1/custom-fields/${w.a.customField}/`]) {
        const res = await w.h.request('GET', url, { token });
        if (who === 'outsider') continue;
        expect(res.status, `${who} ${url}`).toBe(200);
        const fields = Array.isArray(res.body.data) ? res.body.data : [res.body.data];
        for (const field of fields) expect(field.projects ?? [], `${who} ${url}`).not.toContain(w.b.project);
        for (const field of fields) expect(field.id, `${who} ${url}`).not.toBe(w.b.customField);
      }
      expect((await w.h.request('GET', `/api/v1/custom-fields/${w.b.customField}/`, { token })).status, who).toBe(404);
    }
  });

  it('an endpoint spanning A and B, and its deliveries, answer like missing ones to callers who do not see B', async () => {
    const spanning = { ...w.b, endpoint: w.orgWide, delivery: w.orgWideDeliveries[0]! };
    const routes = operations.filter((op) => /\/webhooks\/(endpoints|deliveries)\/\{id\}/.test(op.path));
    expect(routes.length).toBeGreaterThanOrEqual(6);
    const failures: string[] = [];
    for (const op of routes) {
      const target = probeFor(op.method, op.path, spanning);
      const missing = probeFor(op.method, op.path, MISSING);
      // The owner sees both projects: the spanning endpoint is really there.
      if (op.method === 'GET') expect((await send(op, w.owner.token, target)).status, `owner ${target.url}`).toBe(200);
      for (const [who, token] of callers()) {
        const [hidden, gone] = [await send(op, token, target), await send(op, token, missing)];
        const shape = (res: { status: number; text: string }) => `${res.status} ${res.text.replace(/\b\d+\b/g, '<n>')}`;
        if (shape(hidden) !== shape(gone))
          failures.push(`${who} ${op.method} ${target.url}: ${shape(hidden)} ≠ missing ${shape(gone)}`);
      }
    }
    expect(failures).toEqual([]);
    for (const [who, token] of callers()) {
      const list = await w.h.request('GET', '/api/v1/webhooks/endpoints/', { token });
      expect(list.body.data?.map((e: { id: number }) => e.id) ?? [], who).not.toContain(w.orgWide);
      const deliveries = await w.h.request('GET', `/api/v1/webhooks/deliveries/?endpoint=${w.orgWide}`, { token });
      expect(deliveries.body.data ?? [], who).toEqual([]);
    }
  }, 60_000);

  it("no read pointed at visible data shows B's data: lists, search, changes feed, standups, deliveries", async () => {
    // The event stream never ends: HEAD asks what GET would answer. What it sends each caller is
    // held in tests/api/events-stream.test.ts ("sends only what the token sees").
    const reads = operations
      .filter((op) => op.method === 'GET')
      .map((op) => (op.path === '/api/v1/events/stream/' ? { ...op, method: 'HEAD' as Operation['method'] } : op));
    for (const [who, token] of callers()) {
      for (const op of reads) {
        const probe = probeFor(op.method, op.path, w.a);
        const res = await send(op, token, { ...probe, body: undefined });
        expect(res.status, `${who} GET ${probe.url}: ${res.text}`).toBeLessThan(500);
        expect(res.text, `${who} GET ${probe.url}`).not.toContain(MARKER);
        expect(res.text, `${who} GET ${probe.url}`).not.toMatch(/"BBB(-\d+)?"/);
      }
      // Unfiltered feeds and lists over everything the caller can see.
      for (const url of [
        '/api/v1/search/?q=task',
        `/api/v1/search/?q=${MARKER}`,
        '/api/v1/changes/tasks/',
        '/api/v1/changes/tasks/?since=2000-01-01T00:00:00Z',
        '/api/v1/webhooks/deliveries/',
        '/api/v1/webhooks/endpoints/',
        '/api/v1/standups/blockers/',
        `/api/v1/standups/worklist/${w.member.accountId}/`,
        `/api/v1/standups/history/${w.member.accountId}/`,
        '/api/v1/standups/?date=2026-11-19',
        '/api/v1/memberships/',
        '/api/v1/projects/',
        ...w.orgWideDeliveries.map((id) => `/api/v1/webhooks/deliveries/${id}/`),
      ]) {
        const res = await w.h.request('GET', url, { token });
        probes++;
        expect(res.status, `${who} GET ${url}`).toBeLessThan(500);
        expect(res.text, `${who} GET ${url}`).not.toContain(MARKER);
        for (const eventId of w.bEventIds) expect(res.text, `${who} GET ${url}`).not.toContain(eventId);
      }
    }
  }, 60_000);

  it('the marker is found where the caller may see B (the scan can fail)', async () => {
    for (const url of ['/api/v1/search/?q=task', '/api/v1/changes/tasks/', '/api/v1/standups/blockers/']) {
      const res = await w.h.request('GET', url, { token: w.owner.token });
      expect(res.text, url).toContain(MARKER);
    }
    expect(w.bEventIds.length).toBeGreaterThan(3);
    const deliveries = await w.h.request('GET', '/api/v1/webhooks/deliveries/?page_size=100', { token: w.owner.token });
    for (const eventId of w.bEventIds) expect(deliveries.text).toContain(eventId);
  });
});
