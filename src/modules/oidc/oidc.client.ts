import * as client from 'openid-client';
import type { AppContext } from '../../context.ts';
import type { OidcConfig } from '../../identity/oidc-config.ts';

/**
 * The OpenID Connect relying party, on `openid-client` (a certified implementation): discovery,
 * the authorization URL with PKCE, `state` and `nonce`, and the code exchange with every check
 * of the ID token (signature, issuer, audience, nonce, expiry, issued-at). Protocol time follows
 * the service's clock (`clockSkew`), so what tests do with the clock holds for the ID token too.
 */
export interface OidcProviderState {
  metadata: client.ServerMetadata;
  /** The provider's signing keys as last fetched, shared by every flow of the process. */
  jwks?: client.ExportedJWKSCache;
}

/** Plain http is accepted from a loopback issuer only (oidc-config.ts refuses any other). */
const insecure = (oidc: OidcConfig) => oidc.issuer.startsWith('http:');

/** The provider's metadata, discovered once per process; a failed discovery is tried again next time. */
export function providerState(ctx: AppContext, oidc: OidcConfig): Promise<OidcProviderState> {
  if (!ctx.state.oidcProvider) {
    ctx.state.oidcProvider = client
      .discovery(new URL(oidc.issuer), oidc.clientId, undefined, undefined, {
        execute: insecure(oidc) ? [client.allowInsecureRequests] : [],
      })
      .then((found) => ({ metadata: found.serverMetadata() }));
    ctx.state.oidcProvider.catch(() => {
      ctx.state.oidcProvider = undefined;
    });
  }
  return ctx.state.oidcProvider;
}

/** A configuration for one flow, with the clock skew of this moment. */
function configurationFor(ctx: AppContext, oidc: OidcConfig, provider: OidcProviderState): client.Configuration {
  const config = new client.Configuration(
    provider.metadata,
    oidc.clientId,
    {
      [client.clockSkew]: Math.round((ctx.clock.nowMs() - Date.now()) / 1000),
      [client.clockTolerance]: oidc.clockToleranceSeconds,
    },
    oidc.clientSecret === null ? client.None() : client.ClientSecretPost(oidc.clientSecret),
  );
  if (insecure(oidc)) client.allowInsecureRequests(config);
  if (provider.jwks) client.setJwksCache(config, provider.jwks);
  return config;
}

export const redirectUriOf = (ctx: AppContext) => `${ctx.config.publicBaseUrl}/api/console/oidc/callback/`;

export interface FlowSecrets {
  state: string;
  nonce: string;
  codeVerifier: string;
}

export function newFlowSecrets(): FlowSecrets {
  return { state: client.randomState(), nonce: client.randomNonce(), codeVerifier: client.randomPKCECodeVerifier() };
}

/** Where to send the browser to sign in at the provider. */
export async function authorizationUrl(
  ctx: AppContext,
  oidc: OidcConfig,
  secrets: FlowSecrets,
  options: { forceLogin: boolean },
): Promise<string> {
  const config = configurationFor(ctx, oidc, await providerState(ctx, oidc));
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUriOf(ctx),
    scope: oidc.scopes.join(' '),
    state: secrets.state,
    nonce: secrets.nonce,
    code_challenge: await client.calculatePKCECodeChallenge(secrets.codeVerifier),
    code_challenge_method: 'S256',
    ...(options.forceLogin ? { prompt: 'login' } : {}),
  });
  return url.href;
}

export interface ProviderIdentity {
  issuer: string;
  subject: string;
  /** The ID token's claims with the userinfo endpoint's on top (same subject, checked). */
  claims: Record<string, unknown>;
}

/**
 * Checks the provider's answer at our callback URL and exchanges its code: state, PKCE verifier,
 * nonce and the ID token's signature and times all checked by openid-client. Throws on any failure.
 */
export async function exchangeCode(
  ctx: AppContext,
  oidc: OidcConfig,
  callbackUrl: URL,
  secrets: FlowSecrets,
): Promise<ProviderIdentity> {
  const provider = await providerState(ctx, oidc);
  const config = configurationFor(ctx, oidc, provider);
  const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
    pkceCodeVerifier: secrets.codeVerifier,
    expectedState: secrets.state,
    expectedNonce: secrets.nonce,
    idTokenExpected: true,
  });
  provider.jwks = client.getJwksCache(config) ?? provider.jwks;
  const idClaims = tokens.claims()!;
  let claims: Record<string, unknown> = { ...idClaims };
  if (provider.metadata.userinfo_endpoint) {
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, idClaims.sub);
    claims = { ...userinfo, ...idClaims };
  }
  return { issuer: idClaims.iss, subject: idClaims.sub, claims };
}

/** The provider's RP-initiated logout URL, when it has an end_session_endpoint. */
export async function endSessionUrl(ctx: AppContext, oidc: OidcConfig): Promise<string | null> {
  const provider = await providerState(ctx, oidc);
  if (!provider.metadata.end_session_endpoint) return null;
  const config = configurationFor(ctx, oidc, provider);
  return client.buildEndSessionUrl(config, {
    client_id: oidc.clientId,
    post_logout_redirect_uri: `${ctx.config.publicBaseUrl}/sign-in`,
  }).href;
}
