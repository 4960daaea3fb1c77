/**
 * Chat formats (docs/api/webhooks.md, "Chat formats"): the event envelope rendered as the
 * message a Slack incoming webhook, a Discord webhook or a Teams workflow posts into a channel,
 * so a team needs no relay. One line says what happened (with a link to the task or project
 * when PUBLIC_BASE_URL is set), an optional excerpt follows (a comment's body, a standup's
 * text), and a footer names the event type and the workspace.
 *
 * Names and titles come from people, so each target's markup is escaped: nobody can post
 * a link, a mention or formatting through a task title. Discord mentions are switched off too.
 */
import type { WebhookFormat } from '../../../db/schema.ts';

/** A piece of the line: plain text, or text linking to `url`. */
type Segment = string | { text: string; url: string | null };

interface Summary {
  line: Segment[];
  excerpt: string | null;
  /** Where "Open" goes: the task or project, when PUBLIC_BASE_URL is set. */
  url: string | null;
}

interface Envelope {
  type: string;
  occurred_at: string;
  organization: { name: string };
  actor: { id: number; name: string };
  // The data of each type is in the catalog (events/catalog.ts); read defensively here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
}

const EXCERPT_CHARS = 500;
const LINK_VERBS: Record<string, string> = { blocks: 'blocks', relates_to: 'relates to', duplicates: 'duplicates' };

function clip(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

function summarize(envelope: Envelope, baseUrl: string | null): Summary {
  const { data } = envelope;
  const actor = envelope.actor.name || 'Someone';
  const taskUrl = (key: string) => (baseUrl ? `${baseUrl}/t/${encodeURIComponent(key)}` : null);
  const projectUrl = (key: string) => (baseUrl ? `${baseUrl}/p/${encodeURIComponent(key)}/board` : null);
  const task = (t: { key: string; title?: string }): Segment => ({
    text: t.title ? `${t.key} ${t.title}` : t.key,
    url: taskUrl(t.key),
  });
  const project = (p: { key: string; name?: string }): Segment => ({
    text: p.name ? `${p.key} ${p.name}` : p.key,
    url: projectUrl(p.key),
  });
  const summary = (line: Segment[], url: string | null = null, excerpt: string | null = null): Summary => ({
    line,
    url,
    excerpt: excerpt === null || excerpt.trim() === '' ? null : clip(excerpt.trim(), EXCERPT_CHARS),
  });
  const onTask = (line: Segment[], excerpt: string | null = null) =>
    summary(line, data.task ? taskUrl(data.task.key) : null, excerpt);
  const fields = (changes: Record<string, unknown> | undefined) => Object.keys(changes ?? {}).join(', ') || 'nothing';

  switch (envelope.type) {
    case 'task.created':
      return onTask([`${actor} created `, task(data.task)]);
    case 'task.updated':
      return onTask([`${actor} changed `, fields(data.changes), ' of ', task(data.task)]);
    case 'task.status_changed':
      return onTask([`${actor} moved `, task(data.task), ` from ${data.from} to ${data.to}`]);
    case 'task.assigned':
      return onTask([
        `${actor} ${data.to === null ? 'unassigned' : data.from === null ? 'assigned' : 'reassigned'} `,
        task(data.task),
      ]);
    case 'task.deleted':
      return summary([`${actor} deleted ${data.task.key} ${data.task.title}`]);
    case 'task.due_soon':
      return onTask([task(data.task), ` is due on ${data.due_date}`]);
    case 'task.escalated':
      return onTask([
        task(data.task),
        ` has been in ${data.status} unchanged since ${String(data.stuck_since).slice(0, 10)}`,
      ]);
    case 'comment.created':
      return onTask([`${actor} commented on `, task(data.task)], data.comment?.body ?? null);
    case 'comment.updated':
      return onTask([`${actor} edited a comment on `, task(data.task)], data.comment?.body ?? null);
    case 'comment.deleted':
      return onTask([`${actor} deleted a comment on `, task(data.task)]);
    case 'task.linked':
    case 'task.unlinked':
      return summary(
        [
          `${actor} ${envelope.type === 'task.linked' ? 'linked' : 'unlinked'} `,
          task(data.link.from),
          ` ${LINK_VERBS[data.link.type] ?? data.link.type} `,
          task(data.link.to),
        ],
        taskUrl(data.link.from.key),
      );
    case 'attachment.created':
      return onTask([`${actor} attached ${data.attachment.filename} to `, task(data.task)]);
    case 'sprint.started':
    case 'sprint.completed':
      return summary(
        [
          `${actor} ${envelope.type === 'sprint.started' ? 'started' : 'completed'} the sprint ${data.sprint.name} of `,
          project(data.project),
        ],
        projectUrl(data.project.key),
      );
    case 'standup.submitted':
      return summary(
        [`${actor} submitted the standup of ${data.entry.date}`],
        null,
        [data.entry.done && `Done: ${data.entry.done}`, data.entry.doing && `Doing: ${data.entry.doing}`]
          .filter(Boolean)
          .join('\n'),
      );
    case 'standup.blocker_raised':
    case 'standup.blocker_cleared': {
      const verb = envelope.type === 'standup.blocker_raised' ? 'is blocked' : 'is no longer blocked';
      const named = data.blocker.task ? [' (', task({ key: data.blocker.task }), ')'] : [];
      return summary(
        [`${actor} ${verb}`, ...named],
        data.blocker.task ? taskUrl(data.blocker.task) : null,
        data.blocker.text,
      );
    }
    case 'project.created':
      return summary([`${actor} created the project `, project(data.project)], projectUrl(data.project.key));
    case 'project.updated':
      return summary(
        [`${actor} changed ${fields(data.changes)} of the project `, project(data.project)],
        projectUrl(data.project.key),
      );
    case 'membership.changed': {
      const { membership } = data;
      const where = project(membership.project);
      const who = membership.user.name;
      const line: Segment[] =
        data.change === 'added'
          ? [`${actor} added ${who} to `, where, ` as ${data.to_role}`]
          : data.change === 'removed'
            ? [`${actor} removed ${who} from `, where]
            : [`${actor} made ${who} ${data.to_role} (was ${data.from_role}) in `, where];
      return summary(line, projectUrl(membership.project.key));
    }
    case 'notification.created': {
      const n = data.notification;
      return summary(n.task ? [n.text, ': ', task(n.task)] : [n.text], n.task ? taskUrl(n.task.key) : null);
    }
    case 'webhook.test':
      return summary([`Test message from tasktracker: ${data.message}`]);
    default:
      return summary([`${actor}: ${envelope.type}`]);
  }
}

const plain = (line: Segment[]) => line.map((s) => (typeof s === 'string' ? s : s.text)).join('');

/** Slack mrkdwn: &, < and > are the only characters that must be escaped; links are <url|text>. */
const slackEscape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
const slackLine = (line: Segment[]) =>
  line
    .map((s) =>
      typeof s === 'string'
        ? slackEscape(s)
        : s.url
          ? `<${s.url}|${slackEscape(s.text).replaceAll('|', '¦')}>`
          : `*${slackEscape(s.text)}*`,
    )
    .join('');

/** Markdown (Discord, Adaptive Cards): every markup character is backslash-escaped. */
const markdownEscape = (text: string) => text.replace(/[\\`*_~|<>#[\]()]/g, '\\$&');
const markdownLine = (line: Segment[]) =>
  line
    .map((s) =>
      typeof s === 'string'
        ? markdownEscape(s)
        : s.url
          ? `[${markdownEscape(s.text)}](${s.url})`
          : `**${markdownEscape(s.text)}**`,
    )
    .join('');

function slackMessage(envelope: Envelope, summary: Summary, footer: string) {
  const blocks: unknown[] = [{ type: 'section', text: { type: 'mrkdwn', text: clip(slackLine(summary.line), 3000) } }];
  if (summary.excerpt)
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: clip(slackEscape(summary.excerpt).replace(/^/gm, '>'), 3000) },
    });
  blocks.push({ type: 'context', elements: [{ type: 'mrkdwn', text: slackEscape(footer) }] });
  return { text: clip(slackEscape(plain(summary.line)), 3000), blocks };
}

function discordMessage(envelope: Envelope, summary: Summary, footer: string) {
  return {
    content: clip(markdownLine(summary.line), 2000),
    embeds: [
      {
        ...(summary.excerpt ? { description: clip(markdownEscape(summary.excerpt), 4096) } : {}),
        footer: { text: footer },
        timestamp: envelope.occurred_at,
      },
    ],
    // A name or title like "@everyone" must not ping anyone.
    allowed_mentions: { parse: [] },
  };
}

function teamsMessage(envelope: Envelope, summary: Summary, footer: string) {
  const body: unknown[] = [{ type: 'TextBlock', text: markdownLine(summary.line), wrap: true }];
  if (summary.excerpt)
    body.push({ type: 'TextBlock', text: markdownEscape(summary.excerpt), wrap: true, isSubtle: true });
  body.push({ type: 'TextBlock', text: markdownEscape(footer), wrap: true, isSubtle: true, size: 'Small' });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body,
          ...(summary.url
            ? { actions: [{ type: 'Action.OpenUrl', title: 'Open in tasktracker', url: summary.url }] }
            : {}),
        },
      },
    ],
  };
}

/**
 * The bytes an attempt POSTs for an endpoint of `format`: the stored envelope itself for
 * `json`, otherwise the chat message rendered from it (the same for every attempt and replay).
 */
export function deliveryBody(format: WebhookFormat, envelopeJson: string, baseUrl: string | null): Buffer {
  if (format === 'json') return Buffer.from(envelopeJson, 'utf8');
  const envelope = JSON.parse(envelopeJson) as Envelope;
  let summary: Summary;
  try {
    summary = summarize(envelope, baseUrl);
  } catch {
    // A payload shaped otherwise than its renderer expects still reaches the channel, as its type.
    summary = { line: [`${envelope.actor.name}: ${envelope.type}`], excerpt: null, url: null };
  }
  const footer = `${envelope.type} · ${envelope.organization.name}`;
  const message =
    format === 'slack'
      ? slackMessage(envelope, summary, footer)
      : format === 'discord'
        ? discordMessage(envelope, summary, footer)
        : teamsMessage(envelope, summary, footer);
  return Buffer.from(JSON.stringify(message), 'utf8');
}
