/**
 * MCP tools generated from the OpenAPI document (docs/api/mcp.md): one per JSON operation, named
 * by its operation id, whose input is flat (path parameters, query parameters and the request
 * body's fields at the top level). Built from the document the app serves, so a tool cannot
 * drift from its operation.
 */
import type { Scope } from '../../identity/scopes.ts';

type JsonSchema = Record<string, unknown>;

export interface OperationTool {
  name: string;
  description: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path template, e.g. /api/v1/tasks/{task_key}/. */
  path: string;
  /** The scope the operation needs, or null for any authenticated caller. */
  scope: Scope | null;
  inputSchema: JsonSchema & { type: 'object' };
  pathParams: string[];
  queryParams: string[];
  /** The body's fields; null when the operation takes no JSON body. */
  bodyFields: string[] | null;
  /** The operation accepts If-Match: the tool takes `if_match`. */
  ifMatch: boolean;
  /** A POST: the tool takes `idempotency_key`. */
  idempotent: boolean;
}

export const IDEMPOTENCY_KEY = 'idempotency_key';
export const IF_MATCH = 'if_match';

interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: Array<Parameter | { $ref: string }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
  'x-required-scope'?: string | null;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

/** A body schema as one object: an `anyOf` of objects (one shape or another) becomes their fields, all optional; the API still checks the shape. */
function bodyObject(schema: JsonSchema): { properties: Record<string, JsonSchema>; required: string[] } {
  if (schema.type === 'object')
    return {
      properties: (schema.properties ?? {}) as Record<string, JsonSchema>,
      required: (schema.required ?? []) as string[],
    };
  const properties: Record<string, JsonSchema> = {};
  for (const branch of (schema.anyOf ?? schema.oneOf ?? []) as JsonSchema[])
    Object.assign(properties, bodyObject(branch).properties);
  return { properties, required: [] };
}

/** Whether a successful answer is JSON (a file download is not a tool's answer). */
function answersJson(operation: Operation): boolean {
  return Object.entries(operation.responses ?? {}).some(
    ([status, response]) => status.startsWith('2') && (status === '204' || !!response.content?.['application/json']),
  );
}

function toolOf(method: (typeof METHODS)[number], path: string, operation: Operation): OperationTool | null {
  const name = operation.operationId;
  if (!name || !answersJson(operation)) return null;
  const content = operation.requestBody?.content;
  // A multipart upload carries a file, which a tool's JSON arguments cannot.
  if (content && !content['application/json']) return null;
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const pathParams: string[] = [];
  const queryParams: string[] = [];
  let ifMatch = false;
  for (const parameter of operation.parameters ?? []) {
    if (!('in' in parameter)) continue;
    if (parameter.in === 'header') {
      if (parameter.name.toLowerCase() === 'if-match') ifMatch = true;
      continue;
    }
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    (parameter.in === 'path' ? pathParams : queryParams).push(parameter.name);
    properties[parameter.name] = {
      ...parameter.schema,
      ...(parameter.description ? { description: parameter.description } : {}),
    };
    if (parameter.required) required.push(parameter.name);
  }
  let bodyFields: string[] | null = null;
  const bodySchema = content?.['application/json']?.schema;
  if (bodySchema) {
    const body = bodyObject(bodySchema);
    bodyFields = Object.keys(body.properties);
    for (const field of bodyFields) {
      if (field in properties) throw new Error(`${name}: body field ${field} collides with a parameter`);
      properties[field] = body.properties[field]!;
    }
    required.push(...body.required);
  }
  const idempotent = method === 'post';
  if (idempotent)
    properties[IDEMPOTENCY_KEY] = {
      type: 'string',
      minLength: 1,
      maxLength: 255,
      description:
        'Sent as Idempotency-Key: derive it from your own id for this write, so a retry returns the first answer instead of writing twice.',
    };
  if (ifMatch)
    properties[IF_MATCH] = {
      type: 'string',
      description:
        "The ETag you read (the `etag` of a read tool's answer), sent as If-Match: a stale one fails with PRECONDITION_FAILED and the task as it is now, instead of overwriting a newer edit.",
    };
  const scope = (operation['x-required-scope'] ?? null) as Scope | null;
  const summary = [operation.summary, operation.description].filter(Boolean).join('\n\n');
  return {
    name,
    description: summary || name,
    method: method.toUpperCase() as OperationTool['method'],
    path,
    scope,
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
    pathParams,
    queryParams,
    bodyFields,
    ifMatch,
    idempotent,
  };
}

/** Every operation tool of a document, in the document's order. */
export function operationTools(document: { paths?: Record<string, Record<string, unknown>> }): OperationTool[] {
  const tools: OperationTool[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {}))
    for (const method of METHODS) {
      const operation = item[method] as Operation | undefined;
      const tool = operation && toolOf(method, path, operation);
      if (tool) tools.push(tool);
    }
  return tools;
}

/** The URL, headers and body of one call of `tool` with `args`; an unknown argument or a missing path parameter is a mistake named here (the API checks the rest). */
export function requestOf(
  tool: OperationTool,
  args: Record<string, unknown>,
): { url: string; headers: Record<string, string>; body?: Record<string, unknown> } | { mistake: string } {
  const known = new Set(Object.keys(tool.inputSchema.properties as object));
  const unknown = Object.keys(args).filter((name) => !known.has(name));
  if (unknown.length) return { mistake: `${tool.name} takes no argument ${unknown.join(', ')}.` };
  const missing = tool.pathParams.filter((name) => args[name] === undefined || args[name] === null);
  if (missing.length) return { mistake: `${tool.name} needs ${missing.join(', ')}.` };
  const path = tool.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(args[name])));
  const query = new URLSearchParams();
  for (const name of tool.queryParams) if (args[name] !== undefined) query.set(name, String(args[name]));
  const headers: Record<string, string> = {};
  if (typeof args[IDEMPOTENCY_KEY] === 'string') headers['idempotency-key'] = args[IDEMPOTENCY_KEY];
  if (typeof args[IF_MATCH] === 'string') headers['if-match'] = args[IF_MATCH];
  const url = query.size ? `${path}?${query}` : path;
  if (tool.bodyFields === null) return { url, headers };
  const body: Record<string, unknown> = {};
  for (const field of tool.bodyFields) if (args[field] !== undefined) body[field] = args[field];
  return { url, headers, body };
}
