/**
 * The MCP server of one request (docs/api/mcp.md): the operation tools the caller may call, the
 * agent tools and the task resource, all answered through `dispatch`. Loaded on the first MCP
 * request only (mcp.routes.ts): the SDK adds about 30 MB and a second to a process that never serves MCP.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { Principal } from '../../identity/principal.ts';
import { SERVICE_VERSION } from '../../version.ts';
import { AGENT_TOOLS, type Answer, apiError, type Dispatch, json, type ToolResult } from './agent-tools.ts';
import { type OperationTool, requestOf } from './operation-tools.ts';

const TASK_URI = 'tasktracker://tasks/{key}';
const TASK_URI_PATTERN = /^tasktracker:\/\/tasks\/([^/?#]+)$/;

const INSTRUCTIONS =
  'tasktracker: projects, tasks, comments, standups. Read a task before changing it and send its `etag` back as `if_match`; give every POST tool an `idempotency_key` derived from your own id for that write, and reuse it when you retry.';

/** Whether the caller could call an operation at all: its scope, and for a token restricted to projects, not one that needs the whole workspace. */
function offered(tool: OperationTool, principal: Principal): boolean {
  if (tool.scope && !principal.scopes.includes(tool.scope)) return false;
  return !(principal.projectRestriction !== null && WORKSPACE_OPERATIONS.has(tool.name));
}

/** Operations a token restricted to projects is always refused (src/policy/authorize.ts: project.create, workspace.configure). */
const WORKSPACE_OPERATIONS = new Set([
  'createProject',
  'createCustomField',
  'updateCustomField',
  'deleteCustomField',
  'updateCustomFieldOption',
  'reorderCustomFieldOptions',
  'updateStandupSettings',
]);

function described(tool: OperationTool): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    annotations: {
      readOnlyHint: tool.method === 'GET',
      destructiveHint: tool.method === 'DELETE',
      idempotentHint: tool.method !== 'POST' && tool.method !== 'PATCH',
      openWorldHint: false,
    },
  };
}

const etagOf = (answer: Answer): string | undefined =>
  typeof answer.headers.etag === 'string' ? answer.headers.etag : undefined;

/** One operation tool's call: the API's answer (with the ETag it sent), or a tool error with the API's error. */
async function callOperation(
  tool: OperationTool,
  args: Record<string, unknown>,
  dispatch: Dispatch,
): Promise<ToolResult> {
  const request = requestOf(tool, args);
  if ('mistake' in request)
    return {
      isError: true,
      content: [
        { type: 'text', text: JSON.stringify({ error: { code: 'VALIDATION_ERROR', message: request.mistake } }) },
      ],
    };
  const answer = await dispatch(tool.method, request.url, { headers: request.headers, body: request.body });
  if (answer.status === 412 && tool.ifMatch && typeof args.task_key === 'string') {
    // What the agent needs to decide again: the task as it is now, with the ETag to send next.
    const current = await dispatch('GET', `/api/v1/tasks/${encodeURIComponent(args.task_key)}/`);
    return apiError(
      answer,
      current.status === 200
        ? { current: { task: (current.body as { data: unknown }).data, etag: etagOf(current) } }
        : {},
    );
  }
  if (answer.status < 200 || answer.status >= 300) return apiError(answer);
  const etag = etagOf(answer);
  const body = answer.status === 204 ? { success: true } : (answer.body as Record<string, unknown>);
  return json(etag ? { ...body, etag } : body);
}

/** An MCP server for one HTTP request of `principal`, whose API calls go through `dispatch`. */
function serverFor(principal: Principal, tools: OperationTool[], dispatch: Dispatch): Server {
  const server = new Server(
    { name: 'tasktracker', version: SERVICE_VERSION },
    { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  const own = tools.filter((tool) => offered(tool, principal));
  const agentTools = AGENT_TOOLS.filter((tool) => tool.anyOf.some((scope) => principal.scopes.includes(scope)));
  const readsTasks = principal.scopes.includes('tasks:read');

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [
      ...own.map(described),
      ...agentTools.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: { readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: false },
      })),
    ],
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    const agentTool = agentTools.find((tool) => tool.name === request.params.name);
    if (agentTool) return agentTool.run(args, dispatch, principal);
    const tool = own.find((t) => t.name === request.params.name);
    // A tool the token does not have is unknown to it, as an operation it may not call is not listed.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    return callOperation(tool, args, dispatch);
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: [] }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: readsTasks
      ? [
          {
            uriTemplate: TASK_URI,
            name: 'task',
            title: 'A task by key',
            description: 'A task (e.g. tasktracker://tasks/WEB-12) as getTask returns it, with its ETag.',
            mimeType: 'application/json',
          },
        ]
      : [],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const key = TASK_URI_PATTERN.exec(request.params.uri)?.[1];
    if (!key || !readsTasks) throw new McpError(ErrorCode.InvalidParams, `Unknown resource: ${request.params.uri}`);
    const answer = await dispatch('GET', `/api/v1/tasks/${encodeURIComponent(key)}/`);
    if (answer.status !== 200) {
      const error = (answer.body as { error?: { code: string; message: string } }).error;
      throw new McpError(ErrorCode.InvalidParams, `${error?.code ?? answer.status}: ${error?.message ?? ''}`.trim());
    }
    const task = (answer.body as { data: unknown }).data;
    return {
      contents: [
        {
          uri: request.params.uri,
          mimeType: 'application/json',
          text: JSON.stringify({ task, etag: etagOf(answer) }),
        },
      ],
    };
  });
  return server;
}

/**
 * Answers one HTTP request of the Streamable HTTP transport, stateless (no session; JSON, not a
 * stream), on the raw request and response.
 */
export async function answerMcp(
  principal: Principal,
  tools: OperationTool[],
  dispatch: Dispatch,
  http: { req: IncomingMessage; res: ServerResponse; body: unknown },
): Promise<void> {
  const server = serverFor(principal, tools, dispatch);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  http.res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(http.req, http.res, http.body);
}
