import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Actor, type TestHarness } from '../helpers/harness.ts';

/** An MCP client of the SDK, connected (initialized) to the server over a real socket with `token`. */
async function connect(base: string, token: string): Promise<Client> {
  const client = new Client({ name: 'tasktracker-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', base), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** The JSON a tool answered with, and whether it is a tool error. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { isError: result.isError === true, json: JSON.parse(text) as any };
}

describe('the MCP server at /mcp', () => {
  let h: TestHarness;
  let base: string;
  let admin: Actor;
  let full: Client;
  const clients: Client[] = [];

  beforeAll(async () => {
    h = await createHarness();
    await h.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    admin = await h.actor({ role: 'admin' });
    await h.project(admin, 'MCP');
    await h.project(admin, 'OTH');
    full = await connect(base, admin.token);
    clients.push(full);
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await h.close();
  });

  it('initializes as tasktracker, with tools and resources', () => {
    expect(full.getServerVersion()?.name).toBe('tasktracker');
    expect(full.getServerCapabilities()).toMatchObject({ tools: {}, resources: {} });
    expect(full.getInstructions()).toContain('if_match');
  });

  it('lists one tool per JSON operation of the OpenAPI document, with flat arguments, plus the agent tools', async () => {
    const { tools } = await full.listTools();
    const names = tools.map((t) => t.name);
    const document = (await h.request('GET', '/api/v1/openapi.json')).body;
    const operations: string[] = [];
    for (const item of Object.values(document.paths) as Array<Record<string, { operationId: string }>>)
      for (const op of Object.values(item)) operations.push(op.operationId);
    // A file upload, a file download and the event stream are what a JSON tool cannot carry.
    const notJson = ['uploadAttachment', 'downloadAttachment', 'streamEvents'];
    expect(names.sort()).toEqual(
      [...operations.filter((id) => !notJson.includes(id)), 'query_tasks', 'my_day', 'draft_standup'].sort(),
    );
    const createTask = tools.find((t) => t.name === 'createTask')!;
    expect(createTask.inputSchema.required).toEqual(['project_key', 'title']);
    expect(Object.keys(createTask.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['project_key', 'title', 'assignee', 'labels', 'idempotency_key']),
    );
    expect(createTask.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    const updateTask = tools.find((t) => t.name === 'updateTask')!;
    expect(Object.keys(updateTask.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['task_key', 'title', 'if_match']),
    );
    expect(updateTask.inputSchema.properties).not.toHaveProperty('idempotency_key');
    const listTasks = tools.find((t) => t.name === 'listTasks')!;
    expect(Object.keys(listTasks.inputSchema.properties!)).toEqual(
      expect.arrayContaining(['project_key', 'q', 'limit']),
    );
    expect(listTasks.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('lists no write tool to a read-only token', async () => {
    const reader = await h.tokenFor(admin.accountId, ['tasks:read', 'projects:read', 'standups:read']);
    const client = await connect(base, reader.token);
    clients.push(client);
    const names = (await client.listTools()).tools.map((t) => t.name);
    const document = (await h.request('GET', '/api/v1/openapi.json')).body;
    const writes = new Set<string>();
    for (const item of Object.values(document.paths) as Array<Record<string, Record<string, string>>>)
      for (const op of Object.values(item)) if (op['x-required-scope']?.endsWith(':write')) writes.add(op.operationId!);
    expect(names.filter((name) => writes.has(name))).toEqual([]);
    expect(names).toEqual(expect.arrayContaining(['getTask', 'listTasks', 'query_tasks', 'my_day', 'getMe']));
    expect(names).not.toContain('draft_standup');
    expect(names).not.toContain('listWebhookEndpoints');
    // A tool it does not have cannot be called by name either.
    await expect(
      client.callTool({ name: 'createTask', arguments: { project_key: 'MCP', title: 'x' } }),
    ).rejects.toThrow(/Unknown tool: createTask/);
  });

  it('creates a task once for a repeated idempotency key, as the agent, with source "agent"', async () => {
    const first = await call(full, 'createTask', {
      project_key: 'MCP',
      title: 'Written by an agent',
      idempotency_key: 'agent-1',
    });
    expect(first.isError, JSON.stringify(first.json)).toBe(false);
    expect(first.json.data).toMatchObject({ key: 'MCP-1', title: 'Written by an agent' });
    const retry = await call(full, 'createTask', {
      project_key: 'MCP',
      title: 'Written by an agent',
      idempotency_key: 'agent-1',
    });
    expect(retry.json.data.key).toBe('MCP-1');
    const tasks = await h.request('GET', '/api/v1/projects/MCP/tasks/', { token: admin.token });
    expect(tasks.body.data.map((t: { key: string }) => t.key)).toEqual(['MCP-1']);

    const events = await h.ctx.db
      .selectFrom('event_outbox')
      .select(['type', 'envelope'])
      .where('type', '=', 'task.created')
      .execute();
    expect(events).toHaveLength(1);
    const envelope = JSON.parse(events[0]!.envelope);
    expect(envelope.source).toBe('agent');
    expect(envelope.actor.id).toBe(admin.accountId);

    // The same change through the API directly stays "api": the context, not the token, makes an agent.
    await h.request('POST', '/api/v1/projects/MCP/tasks/', { token: admin.token, body: { title: 'By hand' } });
    const sources = await h.ctx.db
      .selectFrom('event_outbox')
      .select('envelope')
      .where('type', '=', 'task.created')
      .execute();
    expect(sources.map((e) => JSON.parse(e.envelope).source)).toEqual(['agent', 'api']);
  });

  it('answers a stale if_match with PRECONDITION_FAILED and the task as it is now', async () => {
    const read = await call(full, 'getTask', { task_key: 'MCP-1' });
    expect(read.isError).toBe(false);
    const etag = read.json.etag as string;
    expect(etag).toMatch(/^"/);
    const updated = await call(full, 'updateTask', {
      task_key: 'MCP-1',
      title: 'Renamed by the agent',
      if_match: etag,
    });
    expect(updated.isError, JSON.stringify(updated.json)).toBe(false);
    expect(updated.json.data.title).toBe('Renamed by the agent');
    expect(updated.json.etag).not.toBe(etag);

    // A person edits in between; the agent's next write still carries the old ETag.
    const person = await h.request('PUT', '/api/v1/tasks/MCP-1/', {
      token: admin.token,
      body: { title: 'A person edited' },
    });
    expect(person.status).toBe(200);
    const stale = await call(full, 'updateTask', {
      task_key: 'MCP-1',
      title: 'Overwrite?',
      if_match: updated.json.etag,
    });
    expect(stale.isError).toBe(true);
    expect(stale.json.error.code).toBe('PRECONDITION_FAILED');
    expect(stale.json.current.task).toMatchObject({ key: 'MCP-1', title: 'A person edited' });
    expect(stale.json.current.etag).toBe(person.headers.etag);
    const now = await h.request('GET', '/api/v1/tasks/MCP-1/', { token: admin.token });
    expect(now.body.data.title).toBe('A person edited');
  });

  it('reads a task as a resource', async () => {
    const { resourceTemplates } = await full.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(['tasktracker://tasks/{key}']);
    const { contents } = await full.readResource({ uri: 'tasktracker://tasks/MCP-1' });
    const body = JSON.parse((contents[0] as { text: string }).text);
    expect(body.task).toMatchObject({ key: 'MCP-1', title: 'A person edited' });
    await expect(full.readResource({ uri: 'tasktracker://tasks/MCP-999' })).rejects.toThrow(/NOT_FOUND/);
  });

  it('keeps a restricted token to its projects, in the tools it lists and what they see', async () => {
    await h.request('POST', '/api/v1/projects/OTH/tasks/', { token: admin.token, body: { title: 'Elsewhere' } });
    const restricted = await h.tokenFor(admin.accountId, undefined, ['MCP']);
    const client = await connect(base, restricted.token);
    clients.push(client);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('createTask');
    expect(names).not.toContain('createProject');
    expect(names).not.toContain('createCustomField');
    const found = await call(client, 'query_tasks', { q: '' });
    expect(found.json.data.map((t: { key: string }) => t.key).sort()).toEqual(['MCP-1', 'MCP-2']);
    const hidden = await call(client, 'getTask', { task_key: 'OTH-1' });
    expect(hidden).toMatchObject({ isError: true, json: { error: { code: 'NOT_FOUND' } } });
    const refused = await call(client, 'createTask', { project_key: 'OTH', title: 'Sneaky', idempotency_key: 'r-1' });
    expect(refused).toMatchObject({ isError: true, json: { error: { code: 'NOT_FOUND' } } });
  });

  it('names the arguments a tool does not take, and the API names invalid ones', async () => {
    const unknown = await call(full, 'getTask', { task_key: 'MCP-1', colour: 'red' });
    expect(unknown).toMatchObject({ isError: true, json: { error: { code: 'VALIDATION_ERROR' } } });
    expect(unknown.json.error.message).toContain('colour');
    const invalid = await call(full, 'createTask', { project_key: 'MCP', title: '' });
    expect(invalid).toMatchObject({ isError: true, json: { error: { code: 'VALIDATION_ERROR' } } });
  });

  it('gives my_day and draft_standup', async () => {
    const day = await call(full, 'my_day');
    expect(day.isError, JSON.stringify(day.json)).toBe(false);
    expect(Object.keys(day.json).sort()).toEqual(['blockers', 'unread_notifications', 'worklist']);
    expect(Array.isArray(day.json.unread_notifications)).toBe(true);
    const draft = await call(full, 'draft_standup');
    expect(draft.isError, JSON.stringify(draft.json)).toBe(false);
    expect(draft.json.already_submitted).toBe(false);
    expect(draft.json.entry.state).toBe('draft');
    expect(draft.json.text).toContain('Doing:');
  });

  it('refuses a missing or bad token before any MCP exchange, and GET or DELETE', async () => {
    const none = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(none.status).toBe(401);
    expect((await none.json()).error.code).toBe('UNAUTHENTICATED');
    await expect(connect(base, 'tt_not_a_token')).rejects.toThrow();
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(`${base}/mcp`, { method, headers: { authorization: `Bearer ${admin.token}` } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
  });
});

describe("the README's MCP client configuration", () => {
  it('connects as written, with the URL and token of a running service', async () => {
    const readme = fs.readFileSync(path.resolve('README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Agents\n'), readme.indexOf('\n## Security\n'));
    const config = JSON.parse(/```json\n([\s\S]*?)```/.exec(section)![1]!);
    const server = config.mcpServers.tasktracker as { type: string; url: string; headers: Record<string, string> };
    expect(server.type).toBe('http');
    const h = await createHarness();
    try {
      await h.app.listen({ port: 0, host: '127.0.0.1' });
      const actor = await h.actor();
      const url = new URL(server.url);
      url.port = String((h.app.server.address() as AddressInfo).port);
      url.hostname = '127.0.0.1';
      const headers = {
        ...server.headers,
        Authorization: server.headers.Authorization!.replace('tt_...', actor.token),
      };
      const client = new Client({ name: 'readme', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('query_tasks');
      await client.close();
    } finally {
      await h.close();
    }
  });
});
