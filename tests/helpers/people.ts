import { createOrganization, createUser } from '../../src/modules/accounts/accounts.service.ts';
import type { WorkspaceRole } from '../../src/db/schema.ts';
import { setPassword } from '../../src/modules/people/people.service.ts';
import type { Response, TestHarness } from './harness.ts';

/** The host tests address the app as, and the Origin a browser on it sends. */
export const HOST = 'tt.test';
export const ORIGIN = `http://${HOST}`;
export const PASSWORD = 'correct horse battery';

export interface Browser {
  cookie: string;
  csrf: string;
  userId: number;
  sessionId: number;
  /** A request as the web app sends it: cookie, CSRF header and Origin. */
  request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<Response>;
}

/** The session cookie a response set (`name=value`), if any. */
export function sessionCookieOf(res: Response): string | undefined {
  const header = res.headers['set-cookie'];
  const all = Array.isArray(header) ? header : header ? [String(header)] : [];
  const found = all.find((c) => /^(__Host-)?tt_session=[^;]+/.test(c));
  return found?.split(';')[0];
}

export function browserFrom(h: TestHarness, res: Response): Browser {
  const cookie = sessionCookieOf(res);
  if (!cookie) throw new Error(`no session cookie: ${res.status} ${res.text}`);
  const { csrf_token: csrf, user, session } = res.body.data;
  return {
    cookie,
    csrf,
    userId: user.id,
    sessionId: session.id,
    request: (method, url, body, headers = {}) =>
      h.request(method, url, {
        body,
        headers: { host: HOST, cookie, 'x-csrf-token': csrf, origin: ORIGIN, ...headers },
      }),
  };
}

/** Signs in through the console API. */
export async function signIn(
  h: TestHarness,
  email: string,
  password = PASSWORD,
  headers: Record<string, string> = {},
): Promise<Response> {
  return h.request('POST', '/api/console/sign-in/', {
    body: { email, password },
    headers: { host: HOST, origin: ORIGIN, ...headers },
  });
}

let counter = 0;

/** A human in an organization (created when missing) with a password, signed in. */
export async function person(
  h: TestHarness,
  options: { org?: string; role?: WorkspaceRole; email?: string } = {},
): Promise<Browser & { email: string; org: string }> {
  const org = options.org ?? `porg-${process.pid}-${++counter}`;
  if (!(await h.ctx.db.selectFrom('organizations').select('id').where('slug', '=', org).executeTakeFirst())) {
    await createOrganization(h.ctx, { name: `Org ${org}`, slug: org });
  }
  const email = options.email ?? `person${++counter}-${process.pid}@example.test`;
  const user = await createUser(h.ctx, {
    org,
    kind: 'human',
    name: `Person ${counter}`,
    email,
    role: options.role ?? 'member',
  });
  await setPassword(h.ctx, user.id, PASSWORD);
  const res = await signIn(h, email);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  return { ...browserFrom(h, res), email, org };
}
