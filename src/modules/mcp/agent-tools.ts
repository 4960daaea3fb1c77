/**
 * The MCP tools that are not one operation each (docs/api/mcp.md): what an agent asks for in
 * one step. Each is made of API calls through `dispatch`, so it sees exactly what the token sees.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../../identity/principal.ts';
import type { Scope } from '../../identity/scopes.ts';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: unknown;
}

/** One API request made as the agent (mcp.routes.ts). */
export type Dispatch = (
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  options?: { headers?: Record<string, string>; body?: unknown },
) => Promise<Answer>;

export type ToolResult = CallToolResult;

export interface AgentTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown> & { type: 'object' };
  /** Listed when the token has one of these scopes. */
  anyOf: Scope[];
  readOnly: boolean;
  run(args: Record<string, unknown>, dispatch: Dispatch, principal: Principal): Promise<ToolResult>;
}

export const json = (value: unknown): ToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });

/** A tool error carrying the API's error object (`code`, `message`, `details`), plus whatever helps the agent decide again. */
export function apiError(answer: Answer, extra: Record<string, unknown> = {}): ToolResult {
  const error = (answer.body as { error?: unknown } | undefined)?.error ?? {
    code: 'INTERNAL_ERROR',
    message: `The API answered ${answer.status}.`,
  };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error, ...extra }) }] };
}

const ok = (answer: Answer): boolean => answer.status >= 200 && answer.status < 300;
const dataOf = (answer: Answer): unknown => (answer.body as { data?: unknown }).data;

const QUERY_TASKS: AgentTool = {
  name: 'query_tasks',
  description:
    'Find tasks with the query language, across every project the token sees: conditions on project, key, status, status_category (todo, in_progress, done), type, priority, assignee, creator, follower, label, milestone, sprint, parent, due, created, updated, title/description/text (~ contains words), blocked, cf["Field"]; joined by AND, OR, NOT and parentheses; optional ORDER BY. People: handle, e-mail, id or me(). Example: `status_category != done AND assignee = me() ORDER BY priority DESC`. The full reference: docs/api/query-language.md.',
  inputSchema: {
    type: 'object',
    properties: {
      q: { type: 'string', maxLength: 2000, description: 'The query; empty lists every visible task.' },
      limit: { type: 'integer', minimum: 1, maximum: 200, description: 'Tasks per page (default 50).' },
      offset: { type: 'integer', minimum: 0, description: 'Tasks to skip, for the next page.' },
    },
    required: ['q'],
    additionalProperties: false,
  },
  anyOf: ['tasks:read'],
  readOnly: true,
  async run(args, dispatch) {
    const query = new URLSearchParams({ q: String(args.q ?? ''), limit: String(args.limit ?? 50) });
    if (args.offset !== undefined) query.set('offset', String(args.offset));
    const answer = await dispatch('GET', `/api/v1/tasks/?${query}`);
    return ok(answer) ? json(answer.body) : apiError(answer);
  },
};

const MY_DAY: AgentTool = {
  name: 'my_day',
  description:
    "The token's account's day at a glance: its worklist (tasks in progress or changed today), what is blocking across the team, and its unread notifications. Parts the token's scopes do not cover are null.",
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  anyOf: ['tasks:read', 'standups:read'],
  readOnly: true,
  async run(_args, dispatch, principal) {
    const standups = principal.scopes.includes('standups:read');
    const tasks = principal.scopes.includes('tasks:read');
    const read = async (url: string) => {
      const answer = await dispatch('GET', url);
      if (!ok(answer)) throw Object.assign(new Error('API error'), { answer });
      return dataOf(answer);
    };
    const inProgress = new URLSearchParams({
      q: 'assignee = me() AND status_category = in_progress ORDER BY priority DESC',
      limit: '100',
    });
    try {
      const [worklist, blockers, notifications] = await Promise.all([
        standups
          ? read(`/api/v1/standups/worklist/${principal.userId}/?limit=100`)
          : tasks
            ? read(`/api/v1/tasks/?${inProgress}`)
            : null,
        standups ? read('/api/v1/standups/blockers/?limit=100') : null,
        read('/api/v1/me/notifications/?unread=true&limit=50'),
      ]);
      return json({ worklist, blockers, unread_notifications: notifications });
    } catch (error) {
      const answer = (error as { answer?: Answer }).answer;
      if (answer) return apiError(answer);
      throw error;
    }
  },
};

interface StandupEntry {
  date: string;
  state: string;
  done: string;
  doing: string;
  blockers: Array<{ text: string; task: string | null }>;
}

/** The entry as a person would post it in chat. */
function standupText(entry: StandupEntry): string {
  const blockers = entry.blockers.length
    ? entry.blockers.map((b) => `- ${b.text}${b.task ? ` (${b.task})` : ''}`).join('\n')
    : 'None';
  return `Standup ${entry.date}\n\nDone:\n${entry.done || '-'}\n\nDoing:\n${entry.doing || '-'}\n\nBlockers:\n${blockers}`;
}

const DRAFT_STANDUP: AgentTool = {
  name: 'draft_standup',
  description:
    "Drafts today's standup entry of the token's account from its worklist and recent activity (done: tasks worked on since its last entry; doing: its live worklist; blockers carried over). Does not submit: review it, then submit with submitMyStandup. Once today is submitted, returns the submitted entry unchanged.",
  inputSchema: { type: 'object', properties: {}, additionalProperties: false },
  anyOf: ['standups:write'],
  readOnly: false,
  async run(_args, dispatch) {
    let answer = await dispatch('POST', '/api/v1/standups/me/redraft/', { body: {} });
    let submitted = false;
    if (
      answer.status === 409 &&
      (answer.body as { error?: { code?: string } }).error?.code === 'STANDUP_ALREADY_SUBMITTED'
    ) {
      answer = await dispatch('GET', '/api/v1/standups/me/');
      submitted = true;
    }
    if (!ok(answer)) return apiError(answer);
    const entry = dataOf(answer) as StandupEntry;
    return json({ already_submitted: submitted, text: standupText(entry), entry });
  },
};

export const AGENT_TOOLS: readonly AgentTool[] = [QUERY_TASKS, MY_DAY, DRAFT_STANDUP];
