import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storedResponse } from '../helpers/storage.ts';
import { buildWorld, probeFor, type World } from './world.ts';

/** POSTs that change nothing: a retry that runs them again is harmless, so their response may be stored once sent. */
const WRITES_NOTHING = new Set(['POST /api/v1/webhooks/verify/']);

/**
 * A process can die after a write commits and before its response reaches the client. The
 * client retries with the same Idempotency-Key once the claim's lease has run out; that retry
 * must replay the response, not do the write again.
 *
 * Generated from the published OpenAPI document, so a new POST cannot escape it. A hook drops
 * the request's claim just before serialization, as a crash at that moment would: a response
 * that is not stored in the write's own transaction is then never stored at all.
 */
describe('Idempotency-Key: every POST commits its stored response with its work', () => {
  let w: World;
  let posts: string[];

  beforeAll(async () => {
    w = await buildWorld((app) => {
      app.addHook('preSerialization', async (request, _reply, payload) => {
        request.idempotencyClaimId = undefined;
        return payload;
      });
    });
    const doc = (await w.h.request('GET', '/api/v1/openapi.json')).body;
    posts = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
      'post' in ops ? [path] : [],
    );
    // A replay needs a finished delivery.
    await w.h.ctx.db
      .updateTable('webhook_deliveries')
      .set({ status: 'delivered' })
      .where('id', '=', w.a.delivery)
      .execute();
  }, 60_000);
  afterAll(() => w.h.close());

  const stored = (key: string) => storedResponse(w.h, key, { tokenId: w.owner.tokenId });

  /** Bodies for the calls the isolation matrix's probes do not make succeed. */
  const bodies: Record<string, () => Promise<unknown>> = {
    // A new member is someone who is not one yet.
    '/api/v1/memberships/': async () => ({ project: w.a.project, user: w.spare.accountId }),
    // Every status of the project, including one this test may have just added.
    '/api/v1/statuses/reorder/': async () => {
      const listed = await w.h.request('GET', `/api/v1/statuses/?project=${w.a.project}&limit=200`, {
        token: w.owner.token,
      });
      return {
        project: w.a.project,
        statuses: (listed.body.data as Array<{ id: number }>).map((status) => status.id).reverse(),
      };
    },
  };

  it('covers every POST of the document but the ones that write nothing', () => {
    expect(posts.length).toBeGreaterThan(20);
    for (const op of WRITES_NOTHING) expect(posts.map((path) => `POST ${path}`)).toContain(op);
  });

  it('the response is stored by the transaction that does the work, and a retry after the lease replays it', async () => {
    const failures: string[] = [];
    for (const [index, path] of posts.entries()) {
      if (WRITES_NOTHING.has(`POST ${path}`)) continue;
      const probe = probeFor('POST', path, w.a);
      const body = (await bodies[path]?.()) ?? probe.body ?? {};
      const key = `stored-${index}`;
      const send = () =>
        w.h.request('POST', probe.url, {
          token: w.owner.token,
          body,
          headers: { ...probe.headers, 'idempotency-key': key },
        });

      const first = await send();
      if (first.status >= 300) {
        failures.push(`${path}: the first call answered ${first.status} ${first.text}`);
        continue;
      }
      const record = await stored(key);
      if (record.state !== 'complete') {
        failures.push(`${path}: the response was not stored with the work (claim ${record.state})`);
        continue;
      }
      expect(record.response_status, path).toBe(first.status);
      if (!record.response_body?.startsWith('sealed:')) expect(record.response_body, path).toBe(first.text);

      w.h.clock.advance((w.h.ctx.config.idempotency.leaseSeconds + 1) * 1000);
      const retry = await send();
      expect(retry.headers['idempotent-replayed'], path).toBe('true');
      expect(retry.status, path).toBe(first.status);
      expect(retry.text, path).toBe(first.text);
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
