import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { loadConfig, serviceBaseUrl } from '../../src/config.ts';
import { describeDatabase, sqliteFile } from '../../src/db/database.ts';
import { createLogger } from '../../src/logger.ts';
import { type Actor, createHarness, type TestHarness } from '../helpers/harness.ts';

/** What a newcomer meets first: paths, methods, 401s, project addressing, logs, shutdown, configuration. */
describe('front door', () => {
  let h: TestHarness;
  let owner: Actor;

  beforeAll(async () => {
    h = await createHarness();
    owner = await h.actor();
    await h.project(owner, 'DOOR');
  });
  afterAll(() => h.close());

  it('a path without its trailing slash is a 404 naming the path with it, query string or not', async () => {
    const me = await h.request('GET', '/api/v1/me', { token: owner.token });
    expect(me.status).toBe(404);
    expect(me.body.error).toEqual({
      code: 'NOT_FOUND',
      message: 'No route GET /api/v1/me. Paths end with a slash: GET /api/v1/me/',
      details: { path: '/api/v1/me/' },
    });
    const tasks = await h.request('POST', '/api/v1/projects/DOOR/tasks?x=1', {
      token: owner.token,
      body: { title: 'x' },
    });
    expect(tasks.status).toBe(404);
    expect(tasks.body.error.details).toEqual({ path: '/api/v1/projects/DOOR/tasks/' });
    expect((await h.request('GET', '/api/v1/projects/DOOR/tasks/', { token: owner.token })).body.pagination.count).toBe(
      0,
    );
    const unknown = await h.request('GET', '/api/v1/nowhere', { token: owner.token });
    expect(unknown.body.error).toEqual({ code: 'NOT_FOUND', message: 'No route GET /api/v1/nowhere.', details: {} });
  });

  it('a known path with a method it does not take is a 405 listing the ones it takes', async () => {
    const res = await h.request('PATCH', '/api/v1/tasks/DOOR-1/', { token: owner.token, body: {} });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('DELETE, GET, HEAD, PUT');
    expect(res.body.error).toMatchObject({
      code: 'METHOD_NOT_ALLOWED',
      details: { allow: ['DELETE', 'GET', 'HEAD', 'PUT'] },
    });
  });

  it('every 401 names the Bearer scheme (RFC 6750)', async () => {
    for (const headers of [{}, { authorization: 'Bearer tt_nope' }] as Array<Record<string, string>>) {
      const res = await h.request('GET', '/api/v1/me/', { headers });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="tasktracker"');
    }
    expect((await h.request('GET', '/api/v1/me/', { token: owner.token })).headers['www-authenticate']).toBeUndefined();
  });

  it('/projects/{id}/ takes the project key as well as the id; an invisible key is a 404 like an unknown one', async () => {
    const byKey = await h.request('GET', '/api/v1/projects/DOOR/', { token: owner.token });
    expect(byKey.status).toBe(200);
    const id = byKey.body.data.id;
    expect((await h.request('GET', `/api/v1/projects/${id}/`, { token: owner.token })).body).toEqual(byKey.body);
    const renamed = await h.request('PATCH', '/api/v1/projects/DOOR/', {
      token: owner.token,
      body: { name: 'Front door' },
    });
    expect(renamed.body.data).toMatchObject({ id, key: 'DOOR', name: 'Front door' });

    const stranger = await h.actor();
    await h.project(stranger, 'THEIRS');
    const invisible = await h.request('GET', '/api/v1/projects/THEIRS/', { token: owner.token });
    const missing = await h.request('GET', '/api/v1/projects/NOSUCH/', { token: owner.token });
    expect(invisible.status).toBe(404);
    expect(invisible.body).toEqual(missing.body);
    expect((await h.request('DELETE', '/api/v1/projects/THEIRS/', { token: owner.token })).status).toBe(404);
    expect((await h.request('GET', '/api/v1/projects/THEIRS/', { token: stranger.token })).status).toBe(200);

    for (const bad of ['door', '0', '05', '0x5', '99999999999', '9999999999']) {
      expect((await h.request('GET', `/api/v1/projects/${bad}/`, { token: owner.token })).status, bad).toBe(400);
    }
    expect((await h.request('DELETE', '/api/v1/projects/DOOR/', { token: owner.token })).status).toBe(204);
    expect((await h.request('GET', `/api/v1/projects/${id}/`, { token: owner.token })).status).toBe(404);
  });

  it('one log line per request at info, with the request and the response', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const log = createLogger('info', {
      write: (line: string) => void lines.push(JSON.parse(line)),
    }) as unknown as FastifyBaseLogger;
    const app = await buildApp(h.ctx, { logger: log });
    await app.ready();
    try {
      const res = await app.inject({
        method: 'GET',
        url: '/api/v1/me/',
        headers: { authorization: `Bearer ${owner.token}` },
      });
      expect(res.statusCode).toBe(200);
      const requestLines = lines.filter((line) => line.request_id === res.headers['x-request-id']);
      expect(requestLines).toHaveLength(1);
      expect(requestLines[0]).toMatchObject({
        level: 30,
        msg: 'request completed',
        req: { method: 'GET', url: '/api/v1/me/' },
        res: { statusCode: 200 },
      });
    } finally {
      await app.close();
    }
  });
});

describe('graceful shutdown', () => {
  function get(
    port: number,
    path: string,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
    return new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
          res.on('error', reject);
        })
        .on('error', reject);
    });
  }

  it('answers 503 to new requests while in-flight ones finish, then closes', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived!: () => void;
    const inHandler = new Promise<void>((resolve) => (arrived = resolve));
    const h = await createHarness({
      beforeReady: (app) => {
        app.get('/test-slow/', async () => {
          arrived();
          await released;
          return { done: true };
        });
      },
    });
    try {
      await h.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (h.app.server.address() as AddressInfo).port;
      const slow = get(port, '/test-slow/');
      await inHandler;
      const closing = h.app.drainAndClose(60_000);
      const refused = await get(port, '/healthz');
      expect(refused.status).toBe(503);
      expect(refused.headers.connection).toBe('close');
      expect(JSON.parse(refused.body).error.code).toBe('SERVICE_UNAVAILABLE');
      release();
      expect(await slow).toMatchObject({ status: 200, body: '{"done":true}' });
      expect(await closing).toEqual({ cut: false });
    } finally {
      release();
      await h.close();
    }
  });

  it('cuts requests still in flight at the deadline', async () => {
    let arrived!: () => void;
    const inHandler = new Promise<void>((resolve) => (arrived = resolve));
    const h = await createHarness({
      beforeReady: (app) => {
        app.get('/test-stuck/', () => {
          arrived();
          return new Promise(() => undefined);
        });
      },
    });
    try {
      await h.app.listen({ host: '127.0.0.1', port: 0 });
      const port = (h.app.server.address() as AddressInfo).port;
      const stuck = get(port, '/test-stuck/').catch((error: Error) => error);
      await inHandler;
      expect(await h.app.drainAndClose(300)).toEqual({ cut: true });
      expect(await stuck).toBeInstanceOf(Error);
    } finally {
      await h.close();
    }
  });
});

describe('configuration errors', () => {
  it('names the variable, the value and what is valid', () => {
    expect(() => loadConfig({ LOG_LEVEL: 'verbose' })).toThrow(
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL must be sqlite:<path>/);
    expect(() => loadConfig({ PORT: '80000' })).toThrow('PORT must be between 0 and 65535, got "80000"');
    expect(() => loadConfig({ PUBLIC_BASE_URL: 'tracker.example.com' })).toThrow(
      /PUBLIC_BASE_URL must be an absolute http\(s\) URL/,
    );
    expect(() => loadConfig({ SHUTDOWN_TIMEOUT_SECONDS: '0' })).toThrow('SHUTDOWN_TIMEOUT_SECONDS must be at least 1');
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: '25' }).databasePoolSize).toBe(25);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow('DATABASE_POOL_SIZE must be at least 1');
    expect(() => loadConfig({ DATABASE_POOL_SIZE: 'ten' })).toThrow(
      'DATABASE_POOL_SIZE must be a non-negative integer, got "ten"',
    );
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '5000' })).toThrow(
      'DATABASE_POOL_SIZE must be between 1 and 1000, got "5000"',
    );
    expect(loadConfig({ PUBLIC_BASE_URL: 'https://tracker.example.com/' }).publicBaseUrl).toBe(
      'https://tracker.example.com',
    );
  });

  it('sqlite paths resolve against the working directory; no path is refused; a PostgreSQL password never shows', () => {
    expect(sqliteFile('sqlite:data/x.db', '/srv/app')).toBe('/srv/app/data/x.db');
    expect(sqliteFile('sqlite://data/x.db', '/srv/app')).toBe('/srv/app/data/x.db');
    expect(sqliteFile('sqlite:///var/lib/x.db', '/srv/app')).toBe('/var/lib/x.db');
    expect(sqliteFile('sqlite::memory:')).toBe(':memory:');
    for (const url of ['sqlite:', 'sqlite://', 'sqlite:///'])
      expect(() => sqliteFile(url), url).toThrow(/names no file/);
    expect(describeDatabase('postgres://app:s3cret@db.internal:5432/tracker?sslmode=require')).toBe(
      'postgres://app@db.internal:5432/tracker',
    );
  });

  it('demo names the URL serve listens on', () => {
    expect(serviceBaseUrl({ publicBaseUrl: null, host: '0.0.0.0', port: 9090 })).toBe('http://localhost:9090');
    expect(serviceBaseUrl({ publicBaseUrl: null, host: '127.0.0.2', port: 8080 })).toBe('http://127.0.0.2:8080');
    expect(serviceBaseUrl({ publicBaseUrl: null, host: '::1', port: 8080 })).toBe('http://[::1]:8080');
    expect(serviceBaseUrl({ publicBaseUrl: 'https://tracker.example.com', host: '0.0.0.0', port: 8080 })).toBe(
      'https://tracker.example.com',
    );
  });
});
