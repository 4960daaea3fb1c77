/**
 * The MCP server at /mcp (docs/api/mcp.md): the Streamable HTTP transport of the official SDK,
 * stateless (a fresh server per POST, answering JSON), behind the same bearer tokens as the API.
 * Every tool and resource is answered by dispatching API requests into this app as the token
 * (`inject`), so each rule, schema, policy, idempotency key and If-Match applies as it does to
 * any client, and the events they cause carry `source: "agent"` (src/identity/agent-calls.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { asAgent } from '../../identity/agent-calls.ts';
import { principalOf } from '../../identity/auth-hook.ts';
import { ApiError } from '../../http/errors.ts';
import type { Api } from '../../http/types.ts';
import type { Dispatch } from './agent-tools.ts';
import { type OperationTool, operationTools } from './operation-tools.ts';

/** API requests as the caller of `request`: its bearer token, a request id joined to its own, and `source: "agent"`. */
function dispatcherFor(app: Api, request: FastifyRequest): Dispatch {
  let calls = 0;
  return (method, url, options = {}) =>
    asAgent(async () => {
      const res = await app.inject({
        method,
        url,
        headers: {
          ...options.headers,
          authorization: request.headers.authorization!,
          'x-request-id': `${request.id}.${++calls}`,
          ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(options.body !== undefined ? { payload: JSON.stringify(options.body) } : {}),
      });
      let body: unknown;
      try {
        body = res.body ? JSON.parse(res.body) : undefined;
      } catch {
        body = undefined;
      }
      return { status: res.statusCode, headers: res.headers, body };
    });
}

/** The transport answers the rest of the request itself; the headers hooks set so far go with it. */
function handOver(reply: FastifyReply): void {
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) reply.raw.setHeader(name, value as string | string[]);
  reply.hijack();
}

const NOT_ALLOWED = {
  jsonrpc: '2.0',
  error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; send requests with POST.' },
  id: null,
};

export function registerMcpRoutes(app: Api, _ctx: AppContext): void {
  let tools: OperationTool[] | undefined;
  let mcpServer: Promise<typeof import('./mcp-server.ts')> | undefined;
  const catalog = () => (tools ??= operationTools(app.swagger() as Parameters<typeof operationTools>[0]));

  app.post('/mcp', { schema: { hide: true }, config: { scope: 'authenticated' } }, async (request, reply) => {
    const principal = principalOf(request);
    if (principal.sessionId !== undefined)
      throw new ApiError(
        'UNAUTHENTICATED',
        'The MCP server takes an API token (Authorization: Bearer), not a session.',
      );
    const { answerMcp } = await (mcpServer ??= import('./mcp-server.ts'));
    handOver(reply);
    await answerMcp(principal, catalog(), dispatcherFor(app, request), {
      req: request.raw,
      res: reply.raw,
      body: request.body,
    });
  });
  // Stateless: no stream to open with GET, no session to end with DELETE (the transport's rule).
  for (const method of ['GET', 'DELETE'] as const)
    app.route({
      method,
      url: '/mcp',
      schema: { hide: true },
      handler: async (_request, reply) => reply.code(405).header('allow', 'POST').send(NOT_ALLOWED),
    });
}
