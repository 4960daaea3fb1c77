/**
 * One-click unsubscribe links (docs/api/notifications.md, "E-mail"): each notification e-mail
 * carries a link that turns off e-mail for its reason, for its recipient, without signing in.
 * The link holds an HMAC of the person and the reason under a per-installation key, so it
 * works for that person and reason only, and nothing else can be forged from it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { secretsEqual } from '../../crypto/constant-time.ts';
import { ensureInstallationSecret } from '../../crypto/installation-secrets.repository.ts';
import type { Reason } from './reasons.ts';

const KEY_NAME = 'notification_unsubscribe_key';

async function key(ctx: AppContext): Promise<string> {
  return ensureInstallationSecret(ctx.db, KEY_NAME, randomBytes(32).toString('base64'), ctx.clock.nowIso());
}

const sign = (secret: string, userId: number, reason: string) =>
  createHmac('sha256', Buffer.from(secret, 'base64')).update(`unsubscribe:${userId}:${reason}`).digest('base64url');

export async function unsubscribeUrl(ctx: AppContext, base: string, userId: number, reason: Reason): Promise<string> {
  const token = sign(await key(ctx), userId, reason);
  return `${base}/api/v1/notifications/unsubscribe/?user=${userId}&reason=${reason}&token=${token}`;
}

export async function isUnsubscribeToken(
  ctx: AppContext,
  userId: number,
  reason: Reason,
  token: string,
): Promise<boolean> {
  return secretsEqual(token, sign(await key(ctx), userId, reason));
}
