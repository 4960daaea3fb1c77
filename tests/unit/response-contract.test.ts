import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { contractViolation } from '../helpers/response-contract.ts';

const document = JSON.parse(fs.readFileSync(new URL('../../docs/openapi.json', import.meta.url), 'utf8'));
const json = 'application/json; charset=utf-8';
const error = (code: string) => JSON.stringify({ success: false, error: { code, message: 'm', details: {} } });

/** The check the test harness applies to every answer (tests/helpers/response-contract.ts). */
describe('response contract', () => {
  it('refuses an undeclared status, a code outside its status, a body that breaks the schema and an undeclared content type', () => {
    expect(contractViolation(document, 'GET', '/api/v1/me/', 418, json, error('VALIDATION_ERROR'))).toMatch(
      /does not declare/,
    );
    expect(contractViolation(document, 'GET', '/api/v1/tasks/:task_key/', 404, json, error('CONFLICT'))).toMatch(
      /code must be equal to one of the allowed values/,
    );
    expect(contractViolation(document, 'GET', '/api/v1/tasks/:task_key/', 404, json, error('NOT_FOUND'))).toBeNull();
    expect(
      contractViolation(
        document,
        'GET',
        '/api/v1/tasks/:task_key/',
        200,
        json,
        JSON.stringify({ success: true, data: { key: 'A-1' } }),
      ),
    ).toMatch(/refuses/);
    expect(contractViolation(document, 'GET', '/api/v1/me/', 200, 'text/html', '<p>')).toMatch(
      /Content-Type "text\/html"/,
    );
    expect(contractViolation(document, 'DELETE', '/api/v1/tasks/:task_key/', 204, undefined, '')).toBeNull();
    expect(
      contractViolation(document, 'GET', '/api/v1/attachments/:id/content/', 200, 'text/plain', 'bytes'),
    ).toBeNull();
    expect(contractViolation(document, 'GET', '/api/console/session/', 200, json, '{}')).toBeNull();
  });

  it('a deleted change record carries no task', () => {
    const page = (change: object) =>
      JSON.stringify({
        success: true,
        data: { changes: [change], since: null },
        pagination: { limit: 50, next_cursor: 'x', has_more: false },
      });
    const deleted = { id: 1, action: 'deleted', key: 'A-1', changed_at: '2026-11-21T10:15:30.123456Z' };
    expect(contractViolation(document, 'GET', '/api/v1/changes/tasks/', 200, json, page(deleted))).toBeNull();
    expect(
      contractViolation(document, 'GET', '/api/v1/changes/tasks/', 200, json, page({ ...deleted, task: {} })),
    ).toMatch(/refuses/);
    expect(
      contractViolation(document, 'GET', '/api/v1/changes/tasks/', 200, json, page({ ...deleted, action: 'updated' })),
    ).toMatch(/refuses/);
  });
});
