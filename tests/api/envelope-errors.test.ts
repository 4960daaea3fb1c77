import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVICE_VERSION } from '../../src/version.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

describe('envelope and error shape', () => {
  let h: TestHarness;
  let actor: Actor;

  beforeAll(async () => {
    // /metrics is closed by default; this suite checks the opted-out (METRICS_PUBLIC) deployment.
    h = await createHarness({ config: { metricsPublic: true } });
    actor = await h.actor();
    await h.project(actor, 'ENV');
  });
  afterAll(() => h.close());

  const expectError = (
    res: { body: { success: boolean; error: { code: string; message: string; details: object } } },
    code: string,
  ) => {
    expect(res.body.success).toBe(false);
    expect(res.body.error.code).toBe(code);
    expect(typeof res.body.error.message).toBe('string');
    expect(res.body.error.details).toBeTypeOf('object');
  };

  it('list responses carry success, data array and offset pagination', async () => {
    const res = await h.request('GET', '/api/v1/projects/', { token: actor.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: [expect.objectContaining({ key: 'ENV' })],
      pagination: { count: 1, limit: 50, offset: 0 },
    });
  });

  it('unknown routes answer 404 NOT_FOUND in the error shape', async () => {
    const res = await h.request('GET', '/api/v1/nope/', { token: actor.token });
    expect(res.status).toBe(404);
    expectError(res, 'NOT_FOUND');
  });

  it('malformed JSON is 400 MALFORMED_JSON and creates nothing', async () => {
    const res = await h.request('POST', '/api/v1/projects/', {
      token: actor.token,
      body: '{"name": "x", "key": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expectError(res, 'MALFORMED_JSON');
    const list = await h.request('GET', '/api/v1/projects/', { token: actor.token });
    expect(list.body.pagination.count).toBe(1);
  });

  it('prototype-polluting keys are refused as malformed', async () => {
    const res = await h.request('POST', '/api/v1/projects/', {
      token: actor.token,
      body: '{"name":"x","key":"PROTO","__proto__":{"admin":true}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expectError(res, 'MALFORMED_JSON');
  });

  it('an unsupported content type is 415', async () => {
    const res = await h.request('POST', '/api/v1/projects/', {
      token: actor.token,
      body: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(415);
    expectError(res, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('a body over 1 MiB is 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await h.request('POST', '/api/v1/projects/', {
      token: actor.token,
      body: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10), key: 'BIG' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(413);
    expectError(res, 'PAYLOAD_TOO_LARGE');
  });

  it('validation errors name each bad field', async () => {
    const res = await h.request('POST', '/api/v1/projects/', { token: actor.token, body: { key: 'lower', extra: 1 } });
    expect(res.status).toBe(400);
    expectError(res, 'VALIDATION_ERROR');
    expect(res.body.error.details.location).toBe('body');
    expect(Object.keys(res.body.error.details.fields).sort()).toEqual(['extra', 'key', 'name']);
  });

  it('body values are not coerced: a numeric string is not an integer', async () => {
    const project = (await h.request('GET', '/api/v1/projects/', { token: actor.token })).body.data[0];
    const res = await h.request('POST', '/api/v1/memberships/', {
      token: actor.token,
      body: { project: String(project.id), user: actor.accountId },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.details.fields).toHaveProperty('project');
  });

  it('unknown query parameters are ignored', async () => {
    const res = await h.request('GET', '/api/v1/projects/?frobnicate=1&x[y]=2', { token: actor.token });
    expect(res.status).toBe(200);
  });

  it('every response carries X-Request-Id, echoing a well-formed incoming one', async () => {
    const res = await h.request('GET', '/api/v1/projects/', {
      token: actor.token,
      headers: { 'x-request-id': 'trace-123' },
    });
    expect(res.headers['x-request-id']).toBe('trace-123');
    const fresh = await h.request('GET', '/api/v1/projects/', {
      token: actor.token,
      headers: { 'x-request-id': 'bad id with spaces' },
    });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('timestamps are ISO 8601 UTC with microseconds', async () => {
    const res = await h.request('GET', '/api/v1/projects/', { token: actor.token });
    expect(res.body.data[0].created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('healthz, readyz and metrics answer without a token', async () => {
    expect((await h.request('GET', '/healthz')).body).toEqual({ status: 'ok', version: SERVICE_VERSION });
    expect((await h.request('GET', '/readyz')).body).toEqual({ status: 'ok', rate_limits: 'memory' });
    const metrics = await h.request('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toContain('http_request_duration_seconds_bucket');
    expect(metrics.text).toMatch(/http_requests_total\{method="GET",route="\/api\/v1\/projects\/",status_code="200"\}/);
  });
});
