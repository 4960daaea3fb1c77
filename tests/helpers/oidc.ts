import { generateKeyPairSync } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContext } from 'oidc-provider';
import type { OidcConfig } from '../../src/identity/oidc-config.ts';

/**
 * A real OpenID provider (oidc-provider, the reference implementation) on a loopback port, with
 * people the test defines. Its sign-in page is a plain form asking whom to sign in as (no
 * password), so API tests post it and browser tests fill it like a person would.
 */
export interface TestAccount {
  email: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The people the provider knows, by subject; tests change them between sign-ins. */
  accounts: Map<string, TestAccount>;
  /** OidcConfig for the app, with these overrides. */
  config(overrides?: Partial<OidcConfig>): OidcConfig;
  close(): Promise<void>;
}

export const CLIENT_ID = 'tasktracker';
const CLIENT_SECRET = 'a-test-client-secret-that-is-long-enough';

function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let data = '';
    req.on('data', (chunk: Buffer) => (data += chunk.toString()));
    req.on('end', () => resolve(new URLSearchParams(data)));
    req.on('error', reject);
  });
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export async function startTestProvider(
  publicBaseUrl: string,
  options: { idTokenTtlSeconds?: number } = {},
): Promise<TestProvider> {
  const accounts = new Map<string, TestAccount>();
  const signingKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${publicBaseUrl}/api/console/oidc/callback/`],
        post_logout_redirect_uris: [`${publicBaseUrl}/sign-in`],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    async findAccount(_ctx: unknown, sub: string) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({
          sub,
          email: account.email,
          email_verified: account.email_verified ?? true,
          name: account.name ?? account.email,
          groups: account.groups ?? [],
        }),
      };
    },
    // Consent is the provider's business, not the app's: every client is granted what it asks.
    async loadExistingGrant(ctx: KoaContext) {
      const accountId = ctx.oidc.session.accountId;
      if (!accountId) return undefined;
      const grant = new provider.Grant({ clientId: ctx.oidc.client.clientId, accountId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false }, rpInitiatedLogout: { enabled: true } },
    cookies: { keys: ['test-cookie-key'] },
    jwks: { keys: [{ ...signingKey.export({ format: 'jwk' }), kid: 'test', use: 'sig', alg: 'RS256' }] },
    ttl: { IdToken: options.idTokenTtlSeconds ?? 3600 },
  });
  const handle = provider.callback();
  server.on('request', (req, res) => {
    const interaction = /^\/interaction\/([^/?]+)/.exec(req.url ?? '');
    if (!interaction) return handle(req, res);
    void (async () => {
      if (req.method === 'GET') {
        const details = await provider.interactionDetails(req, res);
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(
          `<!doctype html><title>Test provider</title><h1>Test provider sign-in</h1>` +
            `<form method="post" action="/interaction/${escapeHtml(details.uid)}">` +
            `<label>Account <input name="login" autofocus></label> <button type="submit">Sign in</button></form>`,
        );
        return;
      }
      const form = await formBody(req);
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: form.get('login') ?? '' } },
        {
          mergeWithLastSubmission: false,
        },
      );
    })().catch((error: unknown) => {
      res.statusCode = 500;
      res.end(String(error));
    });
  });
  return {
    issuer,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    accounts,
    config: (overrides = {}) => ({
      issuer,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      name: 'Test IdP',
      organization: null,
      scopes: ['openid', 'email', 'profile'],
      allowedDomains: [],
      requiredGroups: [],
      groupsClaim: 'groups',
      roleMap: [],
      projectMap: [],
      defaultRole: 'member',
      passwordSignIn: true,
      clockToleranceSeconds: 30,
      ...overrides,
    }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Cookies of one client across redirects: name=value by name. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  take(headers: Headers): void {
    for (const line of headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/**
 * Plays the browser at the provider: follows the authorization URL, signs in as `subject` on
 * its form, and answers the URL the provider sends the browser back to (our callback, with
 * code and state; or with an error).
 */
export async function signInAtProvider(authorizationUrl: string, subject: string): Promise<URL> {
  const jar = new CookieJar();
  let url = authorizationUrl;
  let body: URLSearchParams | undefined;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, {
      method: body ? 'POST' : 'GET',
      redirect: 'manual',
      headers: {
        cookie: jar.header(),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body,
    });
    jar.take(res.headers);
    await res.arrayBuffer();
    body = undefined;
    if (res.status >= 300 && res.status < 400) {
      const next = new URL(res.headers.get('location')!, url);
      if (!next.href.startsWith(new URL(authorizationUrl).origin)) return next;
      url = next.href;
      continue;
    }
    if (res.status === 200 && /\/interaction\//.test(url)) {
      body = new URLSearchParams({ login: subject });
      continue;
    }
    throw new Error(`unexpected answer from the provider: ${res.status} at ${url}`);
  }
  throw new Error('too many redirects at the provider');
}
