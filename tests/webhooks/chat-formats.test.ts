import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { computeSignature } from '@tasktracker/webhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDue } from '../../src/modules/webhooks/delivery/deliver-due.ts';
import { fanOut } from '../../src/modules/webhooks/delivery/fan-out.ts';
import { deliveryBody } from '../../src/modules/webhooks/delivery/chat-formats.ts';
import { causeProjectEvents } from '../helpers/events.ts';
import { outboxRows } from '../helpers/factory.ts';
import type { Actor } from '../helpers/harness.ts';
import { captureLogger, createWebhookHarness, emitEvent, type WebhookHarness } from '../helpers/webhooks.ts';

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: Buffer;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

const FORMATS = ['json', 'slack', 'discord', 'teams'] as const;
// In the order they happen: the project's creation makes its creator a member first.
const EVENTS = ['membership.changed', 'task.created', 'comment.created'];
const BASE = 'https://tracker.example.com';
// Markup of every target, and a mention, in a person's words: it must reach the channel as text.
const TITLE = 'Fix *login* <@everyone> & [docs](x) | _now_';

describe('chat formats: each endpoint gets the events as its chat service expects them', () => {
  let h: WebhookHarness;
  let server: http.Server;
  let owner: Actor;
  let ownerName: string;
  const received = new Map<string, Received[]>();
  const secrets = new Map<string, string>();
  const endpointIds = new Map<string, number>();
  const { log } = captureLogger();

  beforeAll(async () => {
    h = await createWebhookHarness({ allowPrivate: true, config: { publicBaseUrl: BASE } });
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        received.get(req.url!.slice(1))!.push({ headers: req.headers, raw, body: JSON.parse(raw.toString('utf8')) });
        // As the services answer: Slack 200 "ok", Discord 204, Teams 202.
        if (req.url === '/discord') res.writeHead(204).end();
        else if (req.url === '/teams') res.writeHead(202).end();
        else res.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;

    owner = await h.actor({ role: 'admin' });
    ownerName = (
      await h.ctx.db.selectFrom('users').select('name').where('id', '=', owner.accountId).executeTakeFirstOrThrow()
    ).name;
    for (const format of FORMATS) {
      received.set(format, []);
      const res = await h.request('POST', '/api/v1/webhooks/endpoints/', {
        token: owner.token,
        body: {
          url: `http://hooks.test:${port}/${format}`,
          events: EVENTS,
          ...(format === 'json' ? {} : { format }),
        },
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.data.format).toBe(format);
      secrets.set(format, res.body.data.secret);
      endpointIds.set(format, res.body.data.id);
    }

    await h.project(owner, 'CHAT');
    const task = await h.request('POST', '/api/v1/projects/CHAT/tasks/', {
      token: owner.token,
      body: { title: TITLE },
    });
    expect(task.status, task.text).toBe(201);
    const comment = await h.request('POST', '/api/v1/tasks/CHAT-1/comments/', {
      token: owner.token,
      body: { body: 'Looks good.\n**Ship it** @everyone' },
    });
    expect(comment.status, comment.text).toBe(201);
    await fanOut(h.ctx);
    while ((await deliverDue(h.ctx, log)) > 0);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await h.close();
  });

  /** The envelope of each type, as the json endpoint received it. */
  const envelope = (type: string) => received.get('json')!.find((r) => r.body.type === type)!.body;
  /** What a chat endpoint received for the event of `type`. */
  const message = (format: string, type: string) =>
    received.get(format)![received.get('json')!.findIndex((r) => r.body.type === type)]!.body;

  it('every format receives each event once, as JSON, signed over the bytes it received', () => {
    for (const format of FORMATS) {
      const requests = received.get(format)!;
      expect(requests).toHaveLength(EVENTS.length);
      for (const { headers, raw } of requests) {
        expect(headers['content-type']).toBe('application/json');
        const timestamp = headers['x-service-timestamp'] as string;
        expect(headers['x-service-signature']).toBe(computeSignature(secrets.get(format)!, timestamp, raw));
      }
      // The same event ids as the envelopes, in the same order, so a chat message can be traced back.
      expect(requests.map((r) => r.headers['x-service-event-id'])).toEqual(received.get('json')!.map((r) => r.body.id));
    }
    expect(received.get('json')!.map((r) => r.body.type)).toEqual(EVENTS);
  });

  it('slack: text, and blocks with the line, the excerpt and a footer; markup escaped', () => {
    const org = envelope('task.created').organization.name;
    const [created, commented, membership] = EVENTS.slice(1)
      .concat('membership.changed')
      .map((type) => message('slack', type));
    const title = 'Fix *login* &lt;@everyone&gt; &amp; [docs](x) ¦ _now_';
    expect(created).toEqual({
      text: `${ownerName} created CHAT-1 Fix *login* &lt;@everyone&gt; &amp; [docs](x) | _now_`,
      blocks: [
        { type: 'section', text: { type: 'mrkdwn', text: `${ownerName} created <${BASE}/t/CHAT-1|CHAT-1 ${title}>` } },
        { type: 'context', elements: [{ type: 'mrkdwn', text: `task.created · ${org}` }] },
      ],
    });
    expect(commented.blocks).toEqual([
      {
        type: 'section',
        text: { type: 'mrkdwn', text: `${ownerName} commented on <${BASE}/t/CHAT-1|CHAT-1 ${title}>` },
      },
      { type: 'section', text: { type: 'mrkdwn', text: '>Looks good.\n>**Ship it** @everyone' } },
      { type: 'context', elements: [{ type: 'mrkdwn', text: `comment.created · ${org}` }] },
    ]);
    expect(membership.text).toBe(`${ownerName} added ${ownerName} to CHAT as admin`);
    expect(membership.blocks[0].text.text).toBe(
      `${ownerName} added ${ownerName} to <${BASE}/p/CHAT/board|CHAT> as admin`,
    );
  });

  it('discord: content in escaped markdown, an embed with the excerpt, footer and time; no mentions', () => {
    const org = envelope('task.created').organization.name;
    const [created, commented] = ['task.created', 'comment.created'].map((type) => message('discord', type));
    const title = 'Fix \\*login\\* \\<@everyone\\> & \\[docs\\]\\(x\\) \\| \\_now\\_';
    expect(created).toEqual({
      content: `${ownerName} created [CHAT-1 ${title}](${BASE}/t/CHAT-1)`,
      embeds: [{ footer: { text: `task.created · ${org}` }, timestamp: envelope('task.created').occurred_at }],
      allowed_mentions: { parse: [] },
    });
    expect(commented.embeds).toEqual([
      {
        description: 'Looks good.\n\\*\\*Ship it\\*\\* @everyone',
        footer: { text: `comment.created · ${org}` },
        timestamp: envelope('comment.created').occurred_at,
      },
    ]);
    expect(commented.allowed_mentions).toEqual({ parse: [] });
  });

  it('teams: an Adaptive Card in a message, with the line, the excerpt, a footer and an Open action', () => {
    const org = envelope('task.created').organization.name;
    const commented = message('teams', 'comment.created');
    expect(commented).toEqual({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          contentUrl: null,
          content: {
            $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
            type: 'AdaptiveCard',
            version: '1.4',
            body: [
              {
                type: 'TextBlock',
                text: `${ownerName} commented on [CHAT-1 Fix \\*login\\* \\<@everyone\\> & \\[docs\\]\\(x\\) \\| \\_now\\_](${BASE}/t/CHAT-1)`,
                wrap: true,
              },
              { type: 'TextBlock', text: 'Looks good.\n\\*\\*Ship it\\*\\* @everyone', wrap: true, isSubtle: true },
              { type: 'TextBlock', text: `comment.created · ${org}`, wrap: true, isSubtle: true, size: 'Small' },
            ],
            actions: [{ type: 'Action.OpenUrl', title: 'Open in tasktracker', url: `${BASE}/t/CHAT-1` }],
          },
        },
      ],
    });
  });

  it('format is read back, changed with PATCH, and refused when unknown', async () => {
    const id = endpointIds.get('slack')!;
    const read = await h.request('GET', `/api/v1/webhooks/endpoints/${id}/`, { token: owner.token });
    expect(read.body.data.format).toBe('slack');
    const changed = await h.request('PATCH', `/api/v1/webhooks/endpoints/${id}/`, {
      token: owner.token,
      body: { format: 'teams' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.data.format).toBe('teams');
    for (const body of [{ format: 'mattermost' }, { format: null }]) {
      const refused = await h.request('PATCH', `/api/v1/webhooks/endpoints/${id}/`, { token: owner.token, body });
      expect(refused.status).toBe(400);
      expect(refused.body.error.code).toBe('VALIDATION_ERROR');
    }
    const unknown = await h.request('POST', '/api/v1/webhooks/endpoints/', {
      token: owner.token,
      body: { url: 'https://hooks.test/x', format: 'irc' },
    });
    expect(unknown.status).toBe(400);
    expect((await h.request('GET', `/api/v1/webhooks/endpoints/${id}/`, { token: owner.token })).body.data.format).toBe(
      'teams',
    );
  });

  it('renders every event type the app raises as one line saying what happened, in each format', async () => {
    const member = await h.actor({ org: owner.org, role: 'member' });
    const memberName = (
      await h.ctx.db.selectFrom('users').select('name').where('id', '=', member.accountId).executeTakeFirstOrThrow()
    ).name;
    const all = await h.project(owner, 'ALL');
    await causeProjectEvents(h, owner.token, 'ALL', { member: member.accountId });
    await h.addMember('ALL', member.accountId, 'member');
    const moved = await h.request('PUT', '/api/v1/tasks/ALL-1/', {
      token: owner.token,
      body: { title: 'First of ALL', status: 'In Progress', assignee: member.accountId },
    });
    expect(moved.status, moved.text).toBe(200);
    expect((await h.request('DELETE', '/api/v1/tasks/ALL-2/', { token: owner.token })).status).toBe(204);
    // What the scheduler and the inbox raise, in the shapes of the catalog.
    const scheduled = { key: 'ALL-1', title: 'First of ALL', project: 'ALL', status: 'In Progress', assignee: null };
    await emitEvent(h, all.id, 'task.due_soon', {
      task: { ...scheduled, due_date: '2026-11-22' },
      due_date: '2026-11-22',
      window_hours: 24,
    });
    await emitEvent(h, all.id, 'task.escalated', {
      task: { ...scheduled, due_date: null },
      status: 'In Progress',
      stuck_since: '2026-11-18T09:00:00.000000Z',
      stuck_days: 3,
    });
    await emitEvent(h, all.id, 'notification.created', {
      notification: {
        id: 1,
        reason: 'assigned',
        text: 'Ann assigned you',
        task: { key: 'ALL-1', title: 'First of ALL' },
      },
    });

    const lines = new Map<string, string[]>();
    for (const row of await outboxRows(h)) {
      const [slack, discord, teams] = (['slack', 'discord', 'teams'] as const).map((format) =>
        JSON.parse(deliveryBody(format, row.envelope, BASE).toString('utf8')),
      );
      expect(discord.content.length).toBeGreaterThan(0);
      expect(teams.attachments[0].content.body[0].text.length).toBeGreaterThan(0);
      lines.set(row.type, [...(lines.get(row.type) ?? []), slack.text]);
    }
    const [o, m] = [ownerName, memberName];
    const first = 'ALL-1 First of ALL';
    expect(Object.fromEntries(lines)).toEqual({
      'project.created': [`${o} created the project CHAT Project CHAT`, `${o} created the project ALL Project ALL`],
      'membership.changed': [
        `${o} added ${o} to CHAT as admin`,
        `${o} added ${o} to ALL as admin`,
        `${o} added ${m} to ALL as member`,
        `${o} made ${m} viewer (was member) in ALL`,
        `${o} removed ${m} from ALL`,
        `Operator added ${m} to ALL as member`,
      ],
      'task.created': [
        `${o} created CHAT-1 Fix *login* &lt;@everyone&gt; &amp; [docs](x) | _now_`,
        `${o} created ${first}`,
        `${o} created ALL-2 Second of ALL`,
      ],
      'comment.created': [
        `${o} commented on CHAT-1 Fix *login* &lt;@everyone&gt; &amp; [docs](x) | _now_`,
        `${o} commented on ${first}`,
      ],
      'comment.updated': [`${o} edited a comment on ${first}`],
      'comment.deleted': [`${o} deleted a comment on ${first}`],
      'task.linked': [`${o} linked ${first} blocks ALL-2 Second of ALL`],
      'task.unlinked': [`${o} unlinked ${first} blocks ALL-2 Second of ALL`],
      'attachment.created': [`${o} attached notes.txt to ${first}`],
      'sprint.started': [`${o} started the sprint Sprint 1 of ALL`],
      'sprint.completed': [`${o} completed the sprint Sprint 1 of ALL`],
      'project.updated': [`${o} changed name of the project ALL Renamed ALL`],
      'standup.submitted': [`${o} submitted the standup of 2026-11-21`, `${o} submitted the standup of 2026-11-21`],
      'standup.blocker_raised': [`${o} is blocked (ALL-1)`],
      'standup.blocker_cleared': [`${o} is no longer blocked (ALL-1)`],
      'task.updated': [`${o} changed status, assignee of ${first}`],
      'task.status_changed': [`${o} moved ${first} from To Do to In Progress`],
      'task.assigned': [`${o} assigned ${first}`],
      'task.deleted': [`${o} deleted ALL-2 Second of ALL`],
      'task.due_soon': [`${first} is due on 2026-11-22`],
      'task.escalated': [`${first} has been in In Progress unchanged since 2026-11-18`],
      'notification.created': [`Ann assigned you: ${first}`],
    });
  });

  it('an event whose data its renderer does not expect still posts, as its type', () => {
    const odd = JSON.stringify({
      type: 'task.created',
      occurred_at: '2026-11-21T09:00:00.000000Z',
      organization: { name: 'Acme' },
      actor: { id: 1, name: 'Ann' },
      data: {},
    });
    expect(JSON.parse(deliveryBody('slack', odd, BASE).toString()).text).toBe('Ann: task.created');
    expect(deliveryBody('json', odd, BASE).toString()).toBe(odd);
  });

  it('a test delivery is rendered too', async () => {
    const id = endpointIds.get('discord')!;
    received.set('discord', []);
    const test = await h.request('POST', `/api/v1/webhooks/endpoints/${id}/test/`, { token: owner.token });
    expect(test.status, test.text).toBe(201);
    while ((await deliverDue(h.ctx, log)) > 0);
    const [sent] = received.get('discord')!;
    expect(sent!.body.content).toMatch(/^Test message from tasktracker: /);
    expect(sent!.body.embeds[0].footer.text).toMatch(/^webhook\.test · /);
  });
});
