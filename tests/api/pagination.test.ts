import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

/** Drives the shared pagination through GET /api/v1/projects/ with 205 projects. */
describe('pagination: offset and cursor modes', () => {
  let h: TestHarness;
  let actor: Actor;
  const TOTAL = 205;

  beforeAll(async () => {
    h = await createHarness();
    actor = await h.actor();
    for (let i = 0; i < TOTAL; i++)
      await h.project(actor, `P${String(i).padStart(3, '0')}`, `name ${String(TOTAL - i).padStart(3, '0')}`);
  });
  afterAll(() => h.close());

  const get = (query: string) => h.request('GET', `/api/v1/projects/${query}`, { token: actor.token });

  it('offset mode: no limit means 50, never the full list', async () => {
    const res = await get('');
    expect(res.body.data).toHaveLength(50);
    expect(res.body.pagination).toEqual({ count: TOTAL, limit: 50, offset: 0 });
  });

  it('offset mode: limit and offset', async () => {
    const res = await get('?limit=10&offset=200');
    expect(res.body.data.map((p: { key: string }) => p.key)).toEqual(['P200', 'P201', 'P202', 'P203', 'P204']);
    expect(res.body.pagination).toEqual({ count: TOTAL, limit: 10, offset: 200 });
  });

  it('offset mode: maximum 200; above is a 400, zero or negative too', async () => {
    expect((await get('?limit=200')).body.data).toHaveLength(200);
    for (const q of ['?limit=201', '?limit=0', '?limit=-1', '?offset=-1', '?limit=abc', '?page=0']) {
      const res = await get(q);
      expect(res.status, q).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });

  it('aliases: page_size for limit and page for a 1-based page number', async () => {
    const res = await get('?page_size=20&page=3');
    expect(res.body.pagination).toEqual({ count: TOTAL, limit: 20, offset: 40 });
    expect(res.body.data[0].key).toBe('P040');
  });

  it('ordering is honoured, with - for descending', async () => {
    const desc = await get('?ordering=-key&limit=2');
    expect(desc.body.data.map((p: { key: string }) => p.key)).toEqual(['P204', 'P203']);
    const byName = await get('?ordering=name&limit=1');
    expect(byName.body.data[0].name).toBe('name 001');
  });

  it('ordering on an unknown field is a 400 that lists the allowed ones', async () => {
    const res = await get('?ordering=password');
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields.ordering).toMatch(/allowed: .*key/);
  });

  it('cursor mode: an empty cursor starts; walking next_cursor returns every row once in id order; ordering ignored', async () => {
    const seen: number[] = [];
    let cursor = '';
    let pages = 0;
    for (;;) {
      const res = await get(`?cursor=${encodeURIComponent(cursor)}&limit=60&ordering=-key`);
      expect(res.status).toBe(200);
      expect(Object.keys(res.body.pagination).sort()).toEqual(['has_more', 'limit', 'next_cursor']);
      seen.push(...res.body.data.map((p: { id: number }) => p.id));
      pages++;
      cursor = res.body.pagination.next_cursor;
      if (!res.body.pagination.has_more) break;
    }
    expect(pages).toBe(4);
    expect(seen).toHaveLength(TOTAL);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(new Set(seen).size).toBe(TOTAL);

    // The last cursor stays valid: rows added later are picked up by resuming from it.
    await h.project(actor, 'LATE');
    const resumed = await get(`?cursor=${encodeURIComponent(cursor)}`);
    expect(resumed.body.data.map((p: { key: string }) => p.key)).toEqual(['LATE']);
  });

  it('cursor mode: default limit 50 and the same maximum', async () => {
    expect((await get('?cursor=')).body.data).toHaveLength(50);
    expect((await get('?cursor=&limit=201')).status).toBe(400);
  });

  it('a tampered or foreign cursor is a 400, never a 500', async () => {
    const forged = Buffer.from(JSON.stringify({ v: 1, after: -5 })).toString('base64url');
    for (const cursor of ['garbage!', 'eyJ', 'bnVsbA', forged, 'a'.repeat(300), '%00']) {
      const res = await get(`?cursor=${encodeURIComponent(cursor)}`);
      expect(res.status, cursor).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
    }
  });
});
