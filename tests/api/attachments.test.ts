import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { allBytes, multipartBody, type Part } from '../helpers/multipart.ts';
import { createTask } from '../helpers/factory.ts';
import { attachmentRows } from '../helpers/storage.ts';

const MAX = 4096;
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe('attachments: upload, download, listing and access', () => {
  let h: TestHarness;
  let owner: Actor;
  let member: Actor;
  let viewer: Actor;
  let outsider: Actor;
  let task: { key: string };

  beforeAll(async () => {
    h = await createHarness({ config: { attachments: { maxBytes: MAX } } });
    owner = await h.actor();
    member = await h.actor({ org: owner.org, role: 'member' });
    viewer = await h.actor({ org: owner.org, role: 'member' });
    outsider = await h.actor({ org: owner.org, role: 'member' });
    await h.project(owner, 'ATT');
    await h.addMember('ATT', member.accountId, 'member');
    await h.addMember('ATT', viewer.accountId, 'viewer');
    task = await createTask(h, owner, 'ATT');
  });
  afterAll(() => h.close());

  const dir = () => h.ctx.config.attachments.dir;
  const storedFiles = () => fs.readdirSync(dir()).sort();
  const upload = (key: string, parts: Part[], token = owner.token, headers: Record<string, string> = {}) => {
    const { body, headers: multipartHeaders } = multipartBody(parts);
    return h.request('POST', `/api/v1/tasks/${key}/attachments/`, {
      token,
      body,
      headers: { ...multipartHeaders, ...headers },
    });
  };
  const file = (data: Buffer | string, filename = 'notes.bin', contentType = 'application/octet-stream'): Part => ({
    name: 'file',
    filename,
    data,
    contentType,
  });
  const download = (id: number, token = owner.token, headers: Record<string, string> = {}) =>
    h.app.inject({
      method: 'GET',
      url: `/api/v1/attachments/${id}/content/`,
      headers: { authorization: `Bearer ${token}`, ...headers },
    });

  it('round trip: every byte value comes back exactly, with size, sha256 and the download headers', async () => {
    const bytes = allBytes();
    const res = await upload(task.key, [file(bytes, 'all-bytes.bin', 'application/x-test-data')]);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toEqual({
      id: expect.any(Number),
      task: task.key,
      filename: 'all-bytes.bin',
      content_type: 'application/x-test-data',
      size: bytes.length,
      sha256: sha256(bytes),
      uploaded_by: { id: owner.accountId, name: expect.any(String) },
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    });

    const got = await download(res.body.data.id);
    expect(got.statusCode).toBe(200);
    expect(got.rawPayload.equals(bytes)).toBe(true);
    expect(got.headers).toMatchObject({
      'content-type': 'application/x-test-data',
      'content-length': String(bytes.length),
      'content-disposition': `attachment; filename="all-bytes.bin"; filename*=UTF-8''all-bytes.bin`,
      'x-content-type-options': 'nosniff',
      etag: `"${sha256(bytes)}"`,
    });

    const meta = await h.request('GET', `/api/v1/attachments/${res.body.data.id}/`, { token: owner.token });
    expect(meta.body.data).toEqual(res.body.data);
  });

  it('the stored file is the uploaded bytes, under a server-generated name inside ATTACHMENTS_DIR', async () => {
    const data = Buffer.from('stored as is');
    const before = storedFiles();
    const res = await upload(task.key, [file(data)]);
    const added = storedFiles().filter((name) => !before.includes(name));
    expect(added).toHaveLength(1);
    expect(added[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(fs.readFileSync(path.join(dir(), added[0]!)).equals(data)).toBe(true);
    expect(res.body.data.sha256).toBe(sha256(data));
  });

  it('If-None-Match with the ETag answers 304 without a body', async () => {
    const res = await upload(task.key, [file('cached')]);
    const etag = `"${res.body.data.sha256}"`;
    const again = await download(res.body.data.id, owner.token, { 'if-none-match': `W/"other", ${etag}` });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect((await download(res.body.data.id, owner.token, { 'if-none-match': '"different"' })).statusCode).toBe(200);
  });

  it('path-traversal and hostile file names are stored under a random name and kept only as a cleaned display name', async () => {
    const cases: Array<[string, string]> = [
      ['../../etc/passwd', 'passwd'],
      ['..\\..\\windows\\win.ini', 'win.ini'],
      ['/absolute/path/report.pdf', 'report.pdf'],
      ['..', 'file'],
      ['', 'file'],
      ['evil\u202egnp.exe', 'evilgnp.exe'],
      ['tab\there.txt', 'tabhere.txt'],
      ['  spaced.txt  ', 'spaced.txt'],
    ];
    for (const [raw, expected] of cases) {
      const before = storedFiles();
      const res = await upload(task.key, [file('x', raw)]);
      expect(res.status, `${JSON.stringify(raw)}: ${res.text}`).toBe(201);
      expect(res.body.data.filename, JSON.stringify(raw)).toBe(expected);
      const added = storedFiles().filter((name) => !before.includes(name));
      expect(added, JSON.stringify(raw)).toEqual([expect.stringMatching(/^[0-9a-f]{32}$/)]);
    }
    // Nothing was written anywhere but the storage directory's own random names.
    expect(storedFiles().every((name) => /^[0-9a-f]{32}$/.test(name))).toBe(true);
    expect(fs.existsSync(path.join(dir(), '..', 'passwd'))).toBe(false);
  });

  it("a non-ASCII name is kept exactly and sent back with filename*=UTF-8'' (RFC 8187) and an ASCII fallback", async () => {
    const res = await upload(task.key, [file('ü', 'Résumé (final) 100%.pdf', 'application/pdf')]);
    expect(res.body.data.filename).toBe('Résumé (final) 100%.pdf');
    const got = await download(res.body.data.id);
    expect(got.headers['content-disposition']).toBe(
      `attachment; filename="R_sum_ (final) 100_.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%28final%29%20100%25.pdf`,
    );
  });

  it("content_type is the part's media type as sent (parameters dropped); a part without one is text/plain (RFC 7578)", async () => {
    const withParams = await upload(task.key, [file('a', 'a.txt', 'Text/Markdown; charset=utf-8')]);
    expect(withParams.body.data.content_type).toBe('text/markdown');
    const none = await upload(task.key, [{ name: 'file', filename: 'b.txt', data: 'b' }]);
    expect(none.body.data.content_type).toBe('text/plain');
    expect((await download(none.body.data.id)).headers['content-type']).toBe('text/plain');
    const bad = await upload(task.key, [file('c', 'c.bin', 'not a media type')]);
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toHaveProperty('file');
  });

  it('413 PAYLOAD_TOO_LARGE above ATTACHMENT_MAX_BYTES: no row and no partial file remain; exactly the cap is accepted', async () => {
    const rowsBefore = await attachmentRows(h);
    const filesBefore = storedFiles();
    const res = await upload(task.key, [file(Buffer.alloc(MAX + 1, 7))]);
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', details: { max_bytes: MAX } });
    expect(await attachmentRows(h)).toHaveLength(rowsBefore.length);
    expect(storedFiles()).toEqual(filesBefore);

    // Far above the cap: refused from Content-Length before the body is read.
    const huge = await upload(task.key, [file(Buffer.alloc(MAX + 128 * 1024, 7))]);
    expect(huge.status).toBe(413);
    expect(huge.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(storedFiles()).toEqual(filesBefore);

    const exact = await upload(task.key, [file(Buffer.alloc(MAX, 7))]);
    expect(exact.status).toBe(201);
    expect(exact.body.data.size).toBe(MAX);
  });

  it('exactly one file in a part named "file": none, two, a stray field or another name is a 400 and leaves nothing', async () => {
    const filesBefore = storedFiles();
    const cases: Array<[string, Part[], string]> = [
      ['no part', [], 'file'],
      ['only a field', [{ name: 'comment', data: 'hi' }], 'comment'],
      ['two files', [file('one', 'one.txt'), file('two', 'two.txt')], 'file'],
      ['file plus field', [file('one'), { name: 'note', data: 'x' }], 'note'],
      ['field before file', [{ name: 'note', data: 'x' }, file('one')], 'note'],
      ['wrong part name', [{ name: 'upload', filename: 'a.txt', contentType: 'text/plain', data: 'a' }], 'upload'],
      ['__proto__ field', [{ name: '__proto__', data: 'x' }, file('one')], 'body'],
      ['too many fields', Array.from({ length: 11 }, (_, i) => ({ name: `f${i}`, data: 'x' })), 'body'],
    ];
    for (const [label, parts, field] of cases) {
      const res = await upload(task.key, parts);
      expect(res.status, `${label}: ${res.text}`).toBe(400);
      expect(res.body.error.code, label).toBe('VALIDATION_ERROR');
      expect(res.body.error.details.fields, label).toHaveProperty(field);
    }
    expect(storedFiles()).toEqual(filesBefore);
  });

  it('a body that is not multipart/form-data is 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const json = await h.request('POST', `/api/v1/tasks/${task.key}/attachments/`, {
      token: owner.token,
      body: { file: 'x' },
    });
    expect(json.status).toBe(415);
    expect(json.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const text = await h.request('POST', `/api/v1/tasks/${task.key}/attachments/`, {
      token: owner.token,
      body: 'raw bytes',
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(text.status).toBe(415);
    const empty = await h.request('POST', `/api/v1/tasks/${task.key}/attachments/`, { token: owner.token });
    expect(empty.status).toBe(415);
  });

  it('a truncated multipart body is a 400 and leaves no file', async () => {
    const filesBefore = storedFiles();
    const { body, headers } = multipartBody([file('will be cut')]);
    const res = await h.request('POST', `/api/v1/tasks/${task.key}/attachments/`, {
      token: owner.token,
      body: body.subarray(0, body.length - 20),
      headers,
    });
    expect(res.status, res.text).toBe(400);
    expect(storedFiles()).toEqual(filesBefore);
  });

  it("lists a task's attachments (oldest first, paginated, ordering by size), reads one, and other tasks keep theirs", async () => {
    const other = await createTask(h, owner, 'ATT', { title: 'Other' });
    const small = await upload(other.key, [file('12', 'small.txt')]);
    const large = await upload(other.key, [file('12345', 'large.txt')]);
    const res = await h.request('GET', `/api/v1/tasks/${other.key}/attachments/`, { token: member.token });
    expect(res.status).toBe(200);
    expect(res.body.data.map((a: { id: number }) => a.id)).toEqual([small.body.data.id, large.body.data.id]);
    expect(res.body.pagination).toEqual({ count: 2, limit: 50, offset: 0 });
    const bySize = await h.request('GET', `/api/v1/tasks/${other.key}/attachments/?ordering=-size&limit=1`, {
      token: member.token,
    });
    expect(bySize.body.data.map((a: { filename: string }) => a.filename)).toEqual(['large.txt']);
    const cursor = await h.request('GET', `/api/v1/tasks/${other.key}/attachments/?cursor=`, { token: member.token });
    expect(cursor.body.pagination).toMatchObject({ has_more: false });
  });

  it('project viewers read and download but cannot upload or delete (403); nothing of a refused upload is kept', async () => {
    const mine = await upload(task.key, [file('by owner')]);
    expect((await h.request('GET', `/api/v1/tasks/${task.key}/attachments/`, { token: viewer.token })).status).toBe(
      200,
    );
    expect((await download(mine.body.data.id, viewer.token)).statusCode).toBe(200);

    const filesBefore = storedFiles();
    const res = await upload(task.key, [file('from a viewer')], viewer.token);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('FORBIDDEN');
    expect(storedFiles()).toEqual(filesBefore);
    const del = await h.request('DELETE', `/api/v1/attachments/${mine.body.data.id}/`, { token: viewer.token });
    expect(del.status).toBe(403);
  });

  it('an invisible task or attachment is 404 on every route, exactly like a missing one', async () => {
    const mine = await upload(task.key, [file('private')]);
    const id = mine.body.data.id;
    const restricted = await h.tokenFor(owner.accountId, undefined, ['ATT']);
    await h.project(owner, 'OTHER');
    const { token: otherOnly } = await h.tokenFor(owner.accountId, undefined, ['OTHER']);
    for (const token of [outsider.token, otherOnly]) {
      expect((await h.request('GET', `/api/v1/tasks/${task.key}/attachments/`, { token })).status).toBe(404);
      expect((await upload(task.key, [file('x')], token)).status).toBe(404);
      expect((await h.request('GET', `/api/v1/attachments/${id}/`, { token })).status).toBe(404);
      expect((await download(id, token)).statusCode).toBe(404);
      expect((await h.request('DELETE', `/api/v1/attachments/${id}/`, { token })).status).toBe(404);
    }
    expect((await h.request('GET', `/api/v1/attachments/${id}/`, { token: restricted.token })).status).toBe(200);
    expect((await h.request('GET', '/api/v1/attachments/999999/', { token: owner.token })).status).toBe(404);
    expect((await upload('ATT-9999', [file('x')])).status).toBe(404);
  });

  it('the OpenAPI document describes the upload as multipart/form-data with a binary "file" part', async () => {
    const doc = (await h.request('GET', '/api/v1/openapi.json')).body;
    const op = doc.paths['/api/v1/tasks/{task_key}/attachments/'].post;
    expect(op.requestBody.content['multipart/form-data'].schema).toMatchObject({
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string', format: 'binary' } },
    });
    expect(op.responses).toHaveProperty('413');
    expect(doc.paths['/api/v1/attachments/{id}/content/'].get.responses['200'].content).toHaveProperty(['*/*']);
  });
});
