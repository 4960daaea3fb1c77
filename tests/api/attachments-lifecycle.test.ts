import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORPHAN_GRACE_MS, sweepOrphanedAttachmentFiles } from '../../src/modules/attachments/attachment.files.ts';
import { WORKER_JOBS } from '../../src/worker/run-worker.ts';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';
import { multipartBody } from '../helpers/multipart.ts';
import { createTask, taskId } from '../helpers/factory.ts';
import { attachmentRows } from '../helpers/storage.ts';

describe('attachments: deletion, file cleanup, orphan sweep and Idempotency-Key on uploads', () => {
  let h: TestHarness;
  let owner: Actor;
  let projectAdmin: Actor;
  let uploader: Actor;
  let teammate: Actor;

  beforeAll(async () => {
    h = await createHarness();
    owner = await h.actor();
    projectAdmin = await h.actor({ org: owner.org, role: 'member' });
    uploader = await h.actor({ org: owner.org, role: 'member' });
    teammate = await h.actor({ org: owner.org, role: 'member' });
    await h.project(owner, 'LIFE');
    for (const [actor, role] of [
      [projectAdmin, 'admin'],
      [uploader, 'member'],
      [teammate, 'member'],
    ] as const) {
      await h.addMember('LIFE', actor.accountId, role);
    }
  });
  afterAll(() => h.close());

  const dir = () => h.ctx.config.attachments.dir;
  const fileExists = (name: string) => fs.existsSync(path.join(dir(), name));
  const upload = (
    key: string,
    data: string,
    token = uploader.token,
    headers: Record<string, string> = {},
    filename = 'f.txt',
  ) => {
    const { body, headers: multipartHeaders } = multipartBody([
      { name: 'file', filename, contentType: 'text/plain', data },
    ]);
    return h.request('POST', `/api/v1/tasks/${key}/attachments/`, {
      token,
      body,
      headers: { ...multipartHeaders, ...headers },
    });
  };
  const storageName = async (id: number) => (await attachmentRows(h)).find((row) => row.id === id)!.storage_name;
  const storedFiles = () => fs.readdirSync(dir()).sort();

  it('the uploader deletes an attachment: 204, the row and the file are gone', async () => {
    const task = await createTask(h, owner, 'LIFE');
    const res = await upload(task.key, 'bye');
    const name = await storageName(res.body.data.id);
    expect(fileExists(name)).toBe(true);
    const del = await h.request('DELETE', `/api/v1/attachments/${res.body.data.id}/`, { token: uploader.token });
    expect(del.status).toBe(204);
    expect(fileExists(name)).toBe(false);
    expect((await h.request('GET', `/api/v1/attachments/${res.body.data.id}/`, { token: uploader.token })).status).toBe(
      404,
    );
    expect(
      (await h.request('DELETE', `/api/v1/attachments/${res.body.data.id}/`, { token: uploader.token })).status,
    ).toBe(404);
  });

  it("another member may not delete someone else's attachment (403); a project admin may", async () => {
    const task = await createTask(h, owner, 'LIFE');
    const res = await upload(task.key, 'keep');
    const name = await storageName(res.body.data.id);
    const refused = await h.request('DELETE', `/api/v1/attachments/${res.body.data.id}/`, { token: teammate.token });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('FORBIDDEN');
    expect(fileExists(name)).toBe(true);
    const allowed = await h.request('DELETE', `/api/v1/attachments/${res.body.data.id}/`, {
      token: projectAdmin.token,
    });
    expect(allowed.status).toBe(204);
    expect(fileExists(name)).toBe(false);
  });

  it("deleting a task removes its attachments' files; other tasks' files stay", async () => {
    const doomed = await createTask(h, owner, 'LIFE');
    const kept = await createTask(h, owner, 'LIFE');
    const a = await storageName((await upload(doomed.key, 'a')).body.data.id);
    const b = await storageName((await upload(doomed.key, 'b')).body.data.id);
    const c = await storageName((await upload(kept.key, 'c')).body.data.id);
    expect((await h.request('DELETE', `/api/v1/tasks/${doomed.key}/`, { token: owner.token })).status).toBe(204);
    expect([fileExists(a), fileExists(b), fileExists(c)]).toEqual([false, false, true]);
    expect((await attachmentRows(h)).filter((row) => [a, b].includes(row.storage_name))).toEqual([]);
  });

  it('deleting a project removes the files of every attachment in it; other projects keep theirs', async () => {
    const project = await h.project(owner, 'GONE');
    await h.project(owner, 'STAY');
    const t1 = await createTask(h, owner, 'GONE');
    const t2 = await createTask(h, owner, 'GONE');
    const t3 = await createTask(h, owner, 'STAY');
    const names = [
      await storageName((await upload(t1.key, '1', owner.token)).body.data.id),
      await storageName((await upload(t2.key, '2', owner.token)).body.data.id),
    ];
    const other = await storageName((await upload(t3.key, '3', owner.token)).body.data.id);
    expect((await h.request('DELETE', `/api/v1/projects/${project.id}/`, { token: owner.token })).status).toBe(204);
    expect(names.map(fileExists)).toEqual([false, false]);
    expect(fileExists(other)).toBe(true);
  });

  it('the worker sweep removes files without a row once idle past the grace period, and nothing else', async () => {
    const task = await createTask(h, owner, 'LIFE');
    const live = await storageName((await upload(task.key, 'live')).body.data.id);
    const oldOrphan = 'a'.repeat(32);
    const freshOrphan = 'b'.repeat(32);
    const foreign = 'README.txt';
    for (const name of [oldOrphan, freshOrphan, foreign]) fs.writeFileSync(path.join(dir(), name), 'x');
    const now = h.clock.nowMs();
    const old = new Date(now - ORPHAN_GRACE_MS - 60_000);
    fs.utimesSync(path.join(dir(), oldOrphan), old, old);
    fs.utimesSync(path.join(dir(), live), old, old);
    fs.utimesSync(path.join(dir(), foreign), old, old);
    const fresh = new Date(now - 60_000);
    fs.utimesSync(path.join(dir(), freshOrphan), fresh, fresh);

    expect(await sweepOrphanedAttachmentFiles(h.ctx)).toBe(1);
    expect([oldOrphan, freshOrphan, foreign, live].map(fileExists)).toEqual([false, true, true, true]);

    h.clock.advance(ORPHAN_GRACE_MS);
    expect(await sweepOrphanedAttachmentFiles(h.ctx)).toBe(1);
    expect(fileExists(freshOrphan)).toBe(false);
    expect(fileExists(live)).toBe(true);
    expect(WORKER_JOBS.map((job) => job.name)).toContain('sweep-orphaned-attachment-files');
  });

  it('the sweep is a no-op when the storage directory does not exist yet', async () => {
    const ctx = {
      ...h.ctx,
      config: { ...h.ctx.config, attachments: { ...h.ctx.config.attachments, dir: path.join(dir(), 'missing') } },
    };
    expect(await sweepOrphanedAttachmentFiles(ctx)).toBe(0);
  });

  it('Idempotency-Key: the same upload retried replays the stored 201 (one row, one file); a different file with the key is 409', async () => {
    const task = await createTask(h, owner, 'LIFE');
    const key = { 'idempotency-key': `upload-${task.key}` };
    const first = await upload(task.key, 'same bytes', uploader.token, key);
    expect(first.status).toBe(201);
    const filesAfterFirst = storedFiles();

    const replay = await upload(task.key, 'same bytes', uploader.token, key);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(storedFiles()).toEqual(filesAfterFirst);
    const id = await taskId(h, task.key);
    expect((await attachmentRows(h)).filter((row) => row.task_id === id)).toHaveLength(1);

    for (const [data, filename] of [
      ['other bytes', 'f.txt'],
      ['same bytes', 'renamed.txt'],
    ]) {
      const conflict = await upload(task.key, data!, uploader.token, key, filename);
      expect(conflict.status, `${data} as ${filename}`).toBe(409);
      expect(conflict.body.error.code).toBe('CONFLICT');
      expect(storedFiles()).toEqual(filesAfterFirst);
    }

    const withoutKey = await upload(task.key, 'same bytes');
    expect(withoutKey.status).toBe(201);
    expect(withoutKey.body.data.id).not.toBe(first.body.data.id);
  });

  it('Idempotency-Key: a malformed key is a 400 before the upload is read; refusals before the file is received are not stored', async () => {
    const task = await createTask(h, owner, 'LIFE');
    const filesBefore = storedFiles();
    const bad = await upload(task.key, 'x', uploader.token, { 'idempotency-key': 'bad\u0001key' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields).toHaveProperty('Idempotency-Key');
    expect(storedFiles()).toEqual(filesBefore);

    const key = { 'idempotency-key': `retry-after-fix-${task.key}` };
    const { body, headers } = multipartBody([
      { name: 'wrong', filename: 'f.txt', contentType: 'text/plain', data: 'x' },
    ]);
    const refused = await h.request('POST', `/api/v1/tasks/${task.key}/attachments/`, {
      token: uploader.token,
      body,
      headers: { ...headers, ...key },
    });
    expect(refused.status).toBe(400);
    const fixed = await upload(task.key, 'x', uploader.token, key);
    expect(fixed.status).toBe(201);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });
});
