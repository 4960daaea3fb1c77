import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type TestHarness } from '../helpers/harness.ts';

/**
 * No page of the service can be framed by another site, and the manual and the API reference
 * carry a Content-Security-Policy (docs/operating/security.md, "Security headers"): whatever
 * the path, built or not, found or not, redirected or not.
 */
describe('framing and content policies beyond /api/', () => {
  let h: TestHarness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(() => h.close());

  const PATHS = [
    '/docs',
    '/docs/',
    '/docs/api/errors',
    '/docs/nowhere.html',
    '/docs/reference',
    '/docs/reference/',
    '/docs/reference/static/index.html',
    '/docs/reference/static/swagger-ui-bundle.js',
    '/docs/reference/json',
    '/',
    '/sign-in',
    '/t/WEB-1',
    '/assets/missing.js',
    '/healthz',
    '/readyz',
    '/nowhere',
  ];

  it('every answer refuses framing: X-Frame-Options DENY and frame-ancestors none', async () => {
    for (const url of PATHS) {
      const res = await h.app.inject({ method: 'GET', url });
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
    }
  });

  it('the API reference runs only its own scripts, with nothing inline but what it hashed', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/docs/reference/' });
    expect(res.statusCode).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    const script = /script-src ([^;]*)/.exec(csp)?.[1] ?? '';
    expect(script).toContain("'self'");
    expect(script).not.toContain("'unsafe-inline'");
    expect(script).not.toContain("'unsafe-eval'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).not.toContain('upgrade-insecure-requests');
  });
});
