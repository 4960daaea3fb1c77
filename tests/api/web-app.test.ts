import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_DIST } from '../../src/http/web-app.ts';
import { SERVICE_VERSION } from '../../src/version.ts';
import { createHarness, type TestHarness } from '../helpers/harness.ts';

// `npm install` builds the web app; without a build the server answers `/` with how to make one.
const built = fs.existsSync(path.join(WEB_DIST, 'index.html'));

describe.skipIf(!built)('the web app served at /', () => {
  let h: TestHarness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => h.close());

  it('serves its page at / and at any app path, with a script-only-from-self policy', async () => {
    for (const url of ['/', '/p/WEB/board?assignee=3', '/t/WEB-12', '/sign-in']) {
      const res = await h.request('GET', url);
      expect(res.status, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toContain('<div id="root"></div>');
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });

  it('serves hashed assets cached for good', async () => {
    const html = (await h.request('GET', '/')).text;
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const res = await h.request('GET', script);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('leaves the server paths alone: unknown API routes, missing assets and /docs', async () => {
    for (const url of [
      '/api/v1/nope/',
      '/api/console/nope/',
      '/api',
      '/healthz/x',
      '/assets/missing.js',
      '/favicon.ico',
    ]) {
      const res = await h.request('GET', url);
      expect(res.status, url).toBe(404);
      expect(res.body, url).toEqual({
        success: false,
        error: { code: 'NOT_FOUND', message: expect.any(String), details: {} },
      });
    }
    expect((await h.request('GET', '/healthz')).body).toEqual({ status: 'ok', version: SERVICE_VERSION });
    expect((await h.request('GET', '/docs/reference/')).status).toBe(200);
    expect((await h.request('POST', '/p/WEB/board')).status).toBe(404);
  });
});
