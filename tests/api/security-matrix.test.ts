import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SCOPES } from '../../src/identity/scopes.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';

interface Operation {
  method: string;
  path: string;
  scope: string | null;
}

/**
 * Generated from the published OpenAPI document, so a new route cannot escape it:
 * every operation answers 401 without a token, and 403 INSUFFICIENT_SCOPE with a token
 * holding every scope except the one it needs.
 */
describe('security matrix: every route × {no token, wrong scope}', () => {
  let h: TestHarness;
  let operations: Operation[];
  let accountId: number;

  beforeAll(async () => {
    h = await createHarness();
    accountId = (await h.actor()).accountId;
    const doc = (await h.request('GET', '/api/v1/openapi.json')).body;
    operations = Object.entries(
      doc.paths as Record<string, Record<string, { 'x-required-scope'?: string | null }>>,
    ).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase(),
        path,
        scope: op['x-required-scope'] ?? null,
      })),
    );
  });
  afterAll(() => h.close());

  const concrete = (path: string) => path.replace(/\{[^}]+\}/g, (m) => (m.includes('key') ? 'ZZZ-1' : '1'));

  it('the document lists the routes of this build', () => {
    expect(operations.length).toBeGreaterThanOrEqual(13);
  });

  it('every operation answers 401 UNAUTHENTICATED without a token', async () => {
    for (const op of operations) {
      const res = await h.request(op.method as 'GET', concrete(op.path), {
        body: op.method === 'GET' || op.method === 'DELETE' ? undefined : {},
      });
      expect(res.status, `${op.method} ${op.path}`).toBe(401);
      expect(res.body.error.code).toBe('UNAUTHENTICATED');
    }
  });

  it('every scoped operation answers 403 INSUFFICIENT_SCOPE to a token with every other scope', async () => {
    for (const op of operations.filter((o) => o.scope)) {
      const area = op.scope!.split(':')[0];
      const others = ALL_SCOPES.filter((s) =>
        op.scope!.endsWith(':write') ? s !== op.scope : !s.startsWith(`${area}:`),
      );
      const { token } = await h.tokenFor(accountId, others);
      const res = await h.request(op.method as 'GET', concrete(op.path), {
        token,
        body: op.method === 'GET' || op.method === 'DELETE' ? undefined : {},
      });
      expect(res.status, `${op.method} ${op.path}`).toBe(403);
      expect(res.body.error).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required: op.scope } });
    }
  });
});
