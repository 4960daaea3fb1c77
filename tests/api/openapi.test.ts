/* eslint-disable @typescript-eslint/no-explicit-any -- walks the generated document's JSON */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi-document.ts';
import { createHarness } from '../helpers/harness.ts';

describe('published OpenAPI document', () => {
  it('docs/openapi.json matches the route schemas (run `npm run openapi` after changing a route)', async () => {
    const committed = fs.readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    expect(await buildOpenApiDocument()).toBe(committed);
  });

  it('is OpenAPI 3.1 with bearer auth, and every operation names its scope and error responses', async () => {
    const doc = JSON.parse(await buildOpenApiDocument());
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.Error400).toBeDefined();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>)) {
      expect(path.startsWith('/api/v1/') && path.endsWith('/'), path).toBe(true);
      for (const [method, op] of Object.entries(ops)) {
        expect(op, `${method} ${path}`).toHaveProperty('x-required-scope');
        expect(Object.keys(op.responses as object), `${method} ${path}`).toEqual(
          expect.arrayContaining(['401', '403']),
        );
      }
    }
  });

  it('names every operation like an SDK method, declares its tags, headers and every status the HTTP layer answers', async () => {
    const doc = JSON.parse(await buildOpenApiDocument());
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(doc.info.contact).toBeDefined();
    expect(doc.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    const declaredTags = new Set(
      (doc.tags as Array<{ name: string; description: string }>).map((tag) => tag.description && tag.name),
    );
    const ids: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Record<string, any>>>)) {
      for (const [method, op] of Object.entries(ops)) {
        const name = `${method} ${path}`;
        ids.push(op.operationId);
        for (const tag of op.tags) expect(declaredTags.has(tag), name).toBe(true);
        const statuses = Object.keys(op.responses);
        expect(statuses, name).toEqual(expect.arrayContaining(['400', '401', '403', '429', '500', '503']));
        if (method === 'post') {
          expect(statuses, name).toEqual(expect.arrayContaining(['409', '413', '415']));
          expect(op.parameters, name).toContainEqual({ $ref: '#/components/parameters/IdempotencyKey' });
        }
        for (const [status, response] of Object.entries(op.responses as Record<string, any>)) {
          expect(response.headers['X-Request-Id'], `${name} ${status}`).toEqual({
            $ref: '#/components/headers/XRequestId',
          });
          if (Number(status) >= 400) {
            expect(response.content['application/json'].schema, `${name} ${status}`).toEqual({
              $ref: `#/components/schemas/Error${status}`,
            });
          }
        }
        expect(op.responses['429'].headers['Retry-After'], name).toBeDefined();
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual(
      expect.arrayContaining([
        'listTasks',
        'createTask',
        'getTask',
        'updateTask',
        'listProjects',
        'getMe',
        'updateWebhookEndpoint',
        'listTaskChanges',
      ]),
    );
    expect(doc.components.schemas.Error409.properties.error.properties.code.enum).toEqual(
      expect.arrayContaining(['CONFLICT', 'ALREADY_EXISTS', 'LAST_ADMIN']),
    );
    expect(doc.components.schemas.Error401.properties.error.properties.code.enum).toEqual(['UNAUTHENTICATED']);
    expect(Object.keys(doc.paths['/api/v1/attachments/{id}/content/'].get.responses['200'].content)).toEqual(['*/*']);
  });

  it('the served document names the origin it was requested from, unless PUBLIC_BASE_URL is set', async () => {
    const h = await createHarness();
    const served = await h.request('GET', '/api/v1/openapi.json', { headers: { host: 'tracker.example.test:8443' } });
    expect(served.body.servers).toEqual([{ url: 'http://tracker.example.test:8443' }]);
    await h.close();
    const configured = await createHarness({ config: { publicBaseUrl: 'https://api.example.test/' } });
    expect((await configured.request('GET', '/api/v1/openapi.json')).body.servers).toEqual([
      { url: 'https://api.example.test' },
    ]);
    await configured.close();
  });

  it('a body the client may leave out is not marked required; every other body is', async () => {
    const doc = JSON.parse(await buildOpenApiDocument());
    const optional: string[] = [];
    for (const [path, ops] of Object.entries(
      doc.paths as Record<string, Record<string, { requestBody?: { required: boolean } }>>,
    )) {
      for (const [method, op] of Object.entries(ops)) {
        if (op.requestBody && !op.requestBody.required) optional.push(`${method} ${path}`);
        expect(op, `${method} ${path}`).not.toHaveProperty('x-optional-body');
      }
    }
    expect(optional.sort()).toEqual(['post /api/v1/standups/me/redraft/', 'post /api/v1/standups/me/skip/']);
  });
});
