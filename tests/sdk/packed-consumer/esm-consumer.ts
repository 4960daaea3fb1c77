// An integrator's ES module, compiled by tests/sdk/packed-install.test.ts with `tsc --strict`
// against the packed tarballs installed in a fresh project, then run against the real server.
import { createClient, idempotencyKey, isApiError } from '@tasktracker/client';
import { computeSignature, createWebhookHandler, verifyWebhookRequest } from '@tasktracker/webhooks';

const tt = createClient({ baseUrl: process.env.TT_BASE_URL ?? '', token: process.env.TT_TOKEN ?? '' });
const project_key = process.env.TT_PROJECT ?? '';

const key = idempotencyKey('packed-consumer', project_key);
const create = () =>
  tt.post('/api/v1/projects/{project_key}/tasks/', {
    params: { path: { project_key } },
    body: { title: 'From the tarball' },
    idempotencyKey: key,
  });
const created = await create();
const replayed = await create();

// skipLibCheck (as `tsc --init` sets it) hides a declaration that fails to resolve: its types
// quietly become `any`, and these wrong assignments would compile, failing the directives.
// @ts-expect-error a task key is a string
export const keyIsTyped: number = created.data.key;

const titles: string[] = [];
for await (const task of tt.walk('/api/v1/projects/{project_key}/tasks/', { params: { path: { project_key } } }))
  titles.push(task.title);

const missing = await tt
  .get('/api/v1/tasks/{task_key}/', { params: { path: { task_key: `${project_key}-999` } } })
  .catch((error: unknown) => (isApiError(error, 'NOT_FOUND') ? error.code : 'unexpected'));

const secret = 'whsec_packed';
const body = JSON.stringify({ id: 'evt_1', type: 'task.created', data: { task: created.data } });
const timestamp = String(Math.floor(Date.now() / 1000));
const headers = { 'x-service-timestamp': timestamp, 'x-service-signature': computeSignature(secret, timestamp, body) };
const verified = verifyWebhookRequest(headers, body, { secret });
const handled: string[] = [];
await createWebhookHandler({ secret })
  .on('task.created', (event) => void handled.push(event.data.task.title))
  .handle(headers, body);

console.log(
  JSON.stringify({
    key: created.data.key,
    replayed: replayed.response.headers.get('idempotent-replayed'),
    sameKey: replayed.data.key === created.data.key,
    titles,
    missing,
    verifiedType: verified.event.type,
    handled,
  }),
);
