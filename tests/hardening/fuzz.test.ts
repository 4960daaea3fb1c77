import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import { multipartBody } from '../helpers/multipart.ts';
import { bodyFor, bindPath, buildWorld, type Refs, type World } from './world.ts';

/**
 * Every operation of the published OpenAPI document, driven with inputs generated from its own
 * request schemas and mixed with hostile values. Invariants: never a 5xx; every 4xx in the error
 * shape; a 4xx changes nothing (a fingerprint of the main tables is unchanged).
 * CI runs FUZZ_RUNS (default 20) seeded cases per operation; `npm run fuzz` runs more.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 20);
const SEED = Number(process.env.FUZZ_SEED ?? 20261121);

type Schema = Record<string, unknown> & {
  $ref?: string;
  type?: string | string[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
  examples?: unknown[];
};

interface Parameter {
  name: string;
  in: 'path' | 'query';
  schema: Schema;
}

interface Operation {
  method: InjectOptions['method'];
  path: string;
  parameters: Parameter[];
  body?: Schema;
  multipart: boolean;
}

const HUGE = 'x'.repeat(100 * 1024);
const HOSTILE_STRINGS = [
  '',
  ' ',
  'a',
  '\u202eevil\u202c',
  'مرحبا',
  '👩🏽‍💻🚀',
  'e\u0301',
  '\ud800',
  '\udfff',
  '\ufeff',
  '\u2028',
  '../../etc/passwd',
  "'; DROP TABLE tasks; --",
  '%00',
  '<script>alert(1)</script>',
  '__proto__',
  'constructor',
  '1e3',
  '-1',
  '9999999999999999999999',
  'null',
  'true',
  '2026-02-30',
  '0000-00-00T00:00:00Z',
  'AAA-1',
  'AAA-99999999999',
  HUGE,
];
const HOSTILE_NUMBERS = [
  0,
  -1,
  -0,
  1e3,
  1.5,
  2 ** 31,
  2 ** 31 - 1,
  -(2 ** 31) - 1,
  2 ** 53,
  Number.MAX_SAFE_INTEGER,
  1e308,
  -1e308,
];

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(...HOSTILE_STRINGS, ...HOSTILE_NUMBERS, null, true, false, [], {}, [null], {
    __proto__: null,
    a: 1,
  }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.jsonValue({ maxDepth: 3 }),
);

/** Property names that hold references to rows: aim them at project A's rows (or near misses) to reach deep code. */
function refValue(name: string, r: Refs): fc.Arbitrary<unknown> | undefined {
  const ids: Record<string, number[]> = {
    project: [r.project],
    projects: [r.project],
    workflow: [r.workflow],
    status: [r.status, r.status2],
    statuses: [r.status, r.status2],
    from_status: [r.status, r.status2],
    to_status: [r.status2, r.status],
    field: [r.customField],
    options: [r.option],
    endpoint: [r.endpoint],
    user: [r.user],
    assignee: [r.user],
    milestone: [r.milestone],
    sprint: [r.sprint],
  };
  const keys: Record<string, string[]> = { task: [r.task, r.task2], parent: [r.task2], key: [r.task, r.task2] };
  if (ids[name]) {
    const one = fc.constantFrom(...ids[name]!, 0, 99999999);
    return name.endsWith('s') && name !== 'status' ? fc.array(one, { maxLength: 3 }) : one;
  }
  if (keys[name]) return fc.constantFrom(...keys[name]!, 'ZZZ-1', 'AAA-0');
  if (name === 'labels') return fc.array(fc.constantFrom('Visible label', 'nope'), { maxLength: 2 });
  return undefined;
}

/** A value of the schema (mostly valid), with a hostile value in place of any node now and then. */
function fromSchema(
  doc: { components: { schemas: Record<string, Schema> } },
  schema: Schema,
  r: Refs,
  name = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const valid = (): fc.Arbitrary<unknown> => {
    if (schema.$ref) return fromSchema(doc, doc.components.schemas[schema.$ref.split('/').pop()!]!, r, name, depth);
    const ref = refValue(name, r);
    if (ref) return ref;
    const options = schema.anyOf ?? schema.oneOf;
    if (options) return fc.oneof(...options.map((s) => fromSchema(doc, s, r, name, depth)));
    if (schema.enum) return fc.constantFrom(...schema.enum);
    if (schema.const !== undefined) return fc.constant(schema.const);
    const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
    switch (type) {
      case 'string':
        if (schema.format === 'date')
          return fc
            .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
            .map((d) => d.toISOString().slice(0, 10));
        if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
        if (schema.examples?.length) return fc.oneof(fc.constantFrom(...schema.examples), fc.string({ maxLength: 12 }));
        return fc.string({
          minLength: schema.minLength ?? 0,
          maxLength: Math.min(schema.maxLength ?? 30, 30),
          unit: 'grapheme',
        });
      case 'integer':
        return fc.integer({ min: schema.minimum ?? -10, max: Math.min(schema.maximum ?? 1000, 1000) });
      case 'number':
        return fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.array(schema.items ? fromSchema(doc, schema.items, r, name, depth + 1) : hostileValue, {
          maxLength: Math.min(schema.maxItems ?? 3, 3),
        });
      case 'object': {
        if (depth > 3 || !schema.properties)
          return fc.dictionary(fc.string({ maxLength: 8 }), hostileValue, { maxKeys: 2 });
        const model = Object.fromEntries(
          Object.entries(schema.properties).map(([key, s]) => [key, fromSchema(doc, s, r, key, depth + 1)]),
        );
        return fc.record(model, { requiredKeys: schema.required ?? [] });
      }
      default:
        return hostileValue;
    }
  };
  return fc.oneof({ arbitrary: valid(), weight: 5 }, { arbitrary: hostileValue, weight: 1 });
}

const ODD_SEGMENTS = [
  '0',
  '-1',
  '1e3',
  '1.5',
  '99999999999999999999',
  '%20',
  '..',
  '%2e%2e',
  '%2F',
  'ﬀ',
  '%F0%9F%9A%80',
  '%E2%80%AE',
  '%C0%AF',
  '%ZZ',
  'a'.repeat(300),
  'AAA-',
  '-1-1',
  'aaa-1',
  'AAA-1.0',
];
const ODD_QUERIES = [
  'page_size=0',
  'page_size=-1',
  'page_size=1e3',
  'page_size=99999999999',
  'page=abc',
  'cursor=%FF%FE',
  'cursor=AAAA',
  'ordering=__proto__',
  'ordering=-',
  'since=yesterday',
  'q=',
  'q=%22%27%5C',
  'q=*',
  'q=a%20OR%201%3D1',
  '__proto__[x]=1',
  'constructor[prototype][x]=1',
  'a[b][c][d][e]=1',
  'limit=1&limit=2',
  '&&&',
  '=',
  'status=%E2%80%AE',
];

/** Header values a client can send (visible ASCII); oversize ones included. */
const HEADER_VALUES = [
  ...HOSTILE_STRINGS.filter((v) => /^[\x20-\x7e]*$/.test(v) && v.length < 1000),
  'x'.repeat(300),
  '*',
  'W/"1"',
  '"1", "2"',
  '""',
];

interface Case {
  path: string;
  query: string;
  headers: Record<string, string>;
  body?:
    | { kind: 'json'; value: unknown }
    | { kind: 'raw'; text: string; contentType: string }
    | { kind: 'multipart'; filename: string; name: string; contentType: string };
}

/** Raw bodies no serializer would produce: truncated, duplicate keys, prototype keys, deep nesting, wrong types. */
function rawBodies(valid: fc.Arbitrary<unknown>): fc.Arbitrary<{ text: string; contentType: string }> {
  const json = 'application/json';
  return fc.oneof(
    fc.tuple(valid, fc.nat()).map(([v, n]) => {
      const text = JSON.stringify(v) ?? '';
      return { text: text.slice(0, n % Math.max(text.length, 1)), contentType: json };
    }),
    valid.map((v) => {
      const text = JSON.stringify(v) ?? '{}';
      const dup = text.startsWith('{"')
        ? `{${text.slice(1, text.indexOf(',') > 0 ? text.indexOf(',') : -1)},${text.slice(1)}`
        : text;
      return { text: dup, contentType: json };
    }),
    fc
      .constantFrom(
        '{"__proto__":{"admin":true}}',
        '{"constructor":{"prototype":{"admin":true}}}',
        '{"title":"x","__proto__":null}',
        `${'['.repeat(10000)}${']'.repeat(10000)}`,
        `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`,
        '[]',
        '"x"',
        '123',
        'null',
        '{"title":"x"}garbage',
        '\ufeff{"title":"x"}',
        '{"title":"\\ud800"}',
        '{"title":"\\u0000"}',
        `{"title":"${HUGE}"}`,
        '{"title":1e999}',
      )
      .map((text) => ({ text, contentType: json })),
    fc
      .tuple(
        valid,
        fc.constantFrom(
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/xml',
          'multipart/form-data; boundary=x',
          'application/json; charset=latin1',
          'application/jsonx',
          '',
        ),
      )
      .map(([v, contentType]) => ({ text: JSON.stringify(v) ?? '', contentType })),
  );
}

function caseFor(doc: Parameters<typeof fromSchema>[0], op: Operation, r: Refs): fc.Arbitrary<Case> {
  const path = fc
    .oneof(
      { arbitrary: fc.constant(bindPath(op.path, r)), weight: 4 },
      {
        arbitrary: fc
          .constantFrom(...ODD_SEGMENTS)
          .map((segment) =>
            op.path.replace(/\{[^}]+\}/g, (m) =>
              m === '{id}' || m.includes('key') || m.includes('user') ? segment : m,
            ),
          ),
        weight: op.path.includes('{') ? 1 : 0,
      },
    )
    .map((p) => bindPath(p, r));
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const base = bodyFor(String(op.method), op.path, r).query;
  const query = fc.oneof(
    fc.constant(base ?? ''),
    fc.constantFrom(...ODD_QUERIES),
    queryParams.length
      ? fc
          .record(
            Object.fromEntries(
              queryParams.map((p) => [
                p.name,
                fc.oneof(fromSchema(doc, p.schema, r, p.name), fc.constantFrom(...HOSTILE_STRINGS.slice(0, -1))),
              ]),
            ),
            { requiredKeys: [] },
          )
          .map((q) =>
            new URLSearchParams(
              Object.entries(q)
                .filter(([, v]) => v !== undefined)
                .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
            ).toString(),
          )
      : fc.constant(''),
  );
  let body: fc.Arbitrary<Case['body']> = fc.constant(undefined);
  if (op.multipart) {
    body = fc
      .record({
        name: fc.constantFrom('file', 'other', '__proto__', ''),
        filename: fc.constantFrom(...HOSTILE_STRINGS.slice(0, -1), 'a.txt', '..\\..\\x', 'a\u0000b.txt', 'CON', '.'),
        contentType: fc.constantFrom(
          'text/plain',
          '',
          'application/octet-stream',
          'x/'.repeat(50),
          'text/html; charset=utf-8',
        ),
      })
      .map((m) => ({ kind: 'multipart' as const, ...m }));
  } else if (op.body) {
    const valid = fromSchema(doc, op.body, r);
    body = fc.oneof(
      { arbitrary: valid.map((value) => ({ kind: 'json' as const, value })), weight: 3 },
      { arbitrary: rawBodies(valid).map((raw) => ({ kind: 'raw' as const, ...raw })), weight: 1 },
    );
  } else if (op.method !== 'GET' && op.method !== 'DELETE') {
    body = fc.oneof(
      fc.constant(undefined),
      rawBodies(hostileValue).map((raw) => ({ kind: 'raw' as const, ...raw })),
    );
  }
  // An Idempotency-Key now and then only: keys repeat across cases, and a reused key is a 409 that hides the route.
  const headers = fc
    .tuple(
      fc.record(
        {
          'if-match': fc.constantFrom(...HEADER_VALUES),
          'x-request-id': fc.constantFrom(...HEADER_VALUES),
          accept: fc.constantFrom('text/html', '*/*', 'application/xml'),
        },
        { requiredKeys: [] },
      ),
      fc.oneof(
        { weight: 9, arbitrary: fc.constant(undefined) },
        { weight: 1, arbitrary: fc.constantFrom(...HEADER_VALUES) },
      ),
    )
    .map(([h, key]) => (key === undefined ? h : { ...h, 'idempotency-key': key })) as fc.Arbitrary<
    Record<string, string>
  >;
  return fc.record(
    { path, query, headers, body },
    { requiredKeys: ['path', 'query', 'headers'] },
  ) as fc.Arbitrary<Case>;
}

/** Tables whose rows a request can write; a 4xx must leave every count and latest update as it was. */
const COUNTED = [
  'projects',
  'project_memberships',
  'statuses',
  'workflows',
  'transitions',
  'milestones',
  'sprints',
  'labels',
  'tasks',
  'task_labels',
  'task_followers',
  'activities',
  'task_changes',
  'event_outbox',
  'task_links',
  'webhook_endpoints',
  'webhook_deliveries',
  'standup_settings',
  'standup_entries',
  'standup_blockers',
  'custom_fields',
  'custom_field_projects',
  'custom_field_options',
  'task_custom_values',
  'comments',
  'attachments',
  'time_entries',
  'idempotency_keys',
];
const UPDATED = [
  'projects',
  'project_memberships',
  'statuses',
  'workflows',
  'transitions',
  'milestones',
  'sprints',
  'labels',
  'tasks',
  'webhook_endpoints',
  'standup_settings',
  'standup_entries',
  'custom_fields',
  'comments',
  'time_entries',
];

describe(`fuzzing every operation of the OpenAPI document (${RUNS} seeded cases each, seed ${SEED})`, () => {
  let w: World;
  let doc: Parameters<typeof fromSchema>[0] & {
    paths: Record<
      string,
      Record<string, { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema: Schema }> } }>
    >;
  };
  let operations: Operation[];
  let cases = 0;
  const statuses: Record<string, number> = {};

  const fingerprint = async () => {
    const parts = [
      ...COUNTED.map((t) => sql`select ${t} as k, cast(count(*) as text) as v from ${sql.table(t)}`),
      ...UPDATED.map((t) => sql`select ${`${t}.updated_at`} as k, max(updated_at) as v from ${sql.table(t)}`),
    ];
    const { rows } = await sql<{ k: string; v: string | null }>`${sql.join(parts, sql` union all `)}`.execute(
      w.h.ctx.db,
    );
    return Object.fromEntries(rows.map((row) => [row.k, row.v]));
  };

  /** A's keys may change under a fuzzed rename; read them again so paths keep reaching real rows. */
  const currentRefs = async (): Promise<Refs> => {
    const project = await w.h.ctx.db
      .selectFrom('projects')
      .select('key')
      .where('id', '=', w.a.project)
      .executeTakeFirst();
    const tasks = await w.h.ctx.db
      .selectFrom('tasks')
      .select('key')
      .where('project_id', '=', w.a.project)
      .orderBy('number')
      .limit(2)
      .execute();
    return {
      ...w.a,
      projectKey: project?.key ?? w.a.projectKey,
      task: tasks[0]?.key ?? w.a.task,
      task2: tasks[1]?.key ?? w.a.task2,
    };
  };

  beforeAll(async () => {
    w = await buildWorld();
    doc = (await w.h.request('GET', '/api/v1/openapi.json')).body;
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({
        method: method.toUpperCase() as Operation['method'],
        path,
        parameters: op.parameters ?? [],
        body: op.requestBody?.content['application/json']?.schema,
        multipart: Boolean(op.requestBody?.content['multipart/form-data']),
      })),
    );
    // The event stream never ends under inject; its refusals are held in tests/api/events-stream.test.ts.
    operations = operations.filter((op) => op.path !== '/api/v1/events/stream/');
    // Deletes last, the project itself very last, so earlier operations still find rows to work on.
    const rank = (op: Operation) => (op.method === 'DELETE' ? (op.path === '/api/v1/projects/{id}/' ? 2 : 1) : 0);
    operations.sort((x, y) => rank(x) - rank(y));
  }, 60_000);
  afterAll(async () => {
    console.info(`fuzz: ${operations.length} operations, ${cases} cases, statuses ${JSON.stringify(statuses)}`);
    await w.h.close();
  });

  it(
    'no 5xx, every 4xx in the error shape, no state change on a 4xx',
    async () => {
      for (const op of operations) {
        const refs = await currentRefs();
        await fc.assert(
          fc.asyncProperty(caseFor(doc, op, refs), async (c) => {
            cases++;
            const url = c.query ? `${c.path}?${c.query}` : c.path;
            const headers: Record<string, string> = { ...c.headers, authorization: `Bearer ${w.owner.token}` };
            let payload: InjectOptions['payload'];
            if (c.body?.kind === 'json') payload = c.body.value as InjectOptions['payload'];
            if (c.body?.kind === 'json' && (c.body.value === null || typeof c.body.value !== 'object')) {
              payload = JSON.stringify(c.body.value) ?? '';
              headers['content-type'] = 'application/json';
            }
            if (c.body?.kind === 'raw') {
              payload = c.body.text;
              if (c.body.contentType) headers['content-type'] = c.body.contentType;
            }
            if (c.body?.kind === 'multipart') {
              const m = multipartBody([
                {
                  name: c.body.name,
                  filename: c.body.filename,
                  contentType: c.body.contentType || undefined,
                  data: 'fuzz',
                },
              ]);
              payload = m.body;
              Object.assign(headers, m.headers);
            }
            const before = await fingerprint();
            const res = await w.h.app.inject({
              method: op.method,
              url,
              headers,
              ...(payload !== undefined ? { payload } : {}),
            });
            const tally =
              res.statusCode >= 400
                ? `${res.statusCode} ${(res.json() as { error?: { code?: string } }).error?.code}`
                : String(res.statusCode);
            statuses[tally] = (statuses[tally] ?? 0) + 1;
            const label = `${op.method} ${url} ${JSON.stringify(c.body)?.slice(0, 300)} -> ${res.statusCode} ${res.body.slice(0, 300)}`;
            expect(res.statusCode, label).toBeLessThan(500);
            if (res.statusCode >= 400) {
              const body = res.json();
              expect(Object.keys(body).sort(), label).toEqual(['error', 'success']);
              expect(body.success, label).toBe(false);
              expect(Object.keys(body.error).sort(), label).toEqual(['code', 'details', 'message']);
              expect(typeof body.error.code, label).toBe('string');
              expect(typeof body.error.message, label).toBe('string');
              expect(
                body.error.details !== null &&
                  typeof body.error.details === 'object' &&
                  !Array.isArray(body.error.details),
                label,
              ).toBe(true);
              const after = await fingerprint();
              // An Idempotency-Key stores a 4xx answer for replay (docs/api/idempotency.md): that row is the one allowed write.
              if (c.headers['idempotency-key'] !== undefined) {
                delete after.idempotency_keys;
                delete before.idempotency_keys;
              }
              expect(after, label).toEqual(before);
            }
          }),
          { numRuns: RUNS, seed: SEED, endOnFailure: true },
        );
      }
      expect(cases).toBe(operations.length * RUNS);
    },
    Math.max(300_000, RUNS * 20_000),
  );
});
