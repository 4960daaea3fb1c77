import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../src/openapi-document.ts';

describe('published OpenAPI document', () => {
  it('docs/openapi.json matches the route schemas (run `npm run openapi` after changing a route)', async () => {
    const committed = fs.readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8');
    expect(await buildOpenApiDocument()).toBe(committed);
  });

  it('is OpenAPI 3.1 with bearer auth, and every operation names its scope and error responses', async () => {
    const doc = JSON.parse(await buildOpenApiDocument());
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.securitySchemes.bearerAuth).toEqual({ type: 'http', scheme: 'bearer' });
    expect(doc.components.schemas.Error).toBeDefined();
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>)) {
      expect(path.startsWith('/api/v1/') && path.endsWith('/'), path).toBe(true);
      for (const [method, op] of Object.entries(ops)) {
        expect(op, `${method} ${path}`).toHaveProperty('x-required-scope');
        expect(Object.keys(op.responses as object), `${method} ${path}`).toEqual(expect.arrayContaining(['401', '403']));
      }
    }
  });

  it('a body the client may leave out is not marked required; every other body is', async () => {
    const doc = JSON.parse(await buildOpenApiDocument());
    const optional: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { requestBody?: { required: boolean } }>>)) {
      for (const [method, op] of Object.entries(ops)) {
        if (op.requestBody && !op.requestBody.required) optional.push(`${method} ${path}`);
        expect(op, `${method} ${path}`).not.toHaveProperty('x-optional-body');
      }
    }
    expect(optional.sort()).toEqual(['post /api/v1/standups/me/redraft/', 'post /api/v1/standups/me/skip/']);
  });
});
