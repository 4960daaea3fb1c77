/**
 * Secrets at rest: webhook signing secrets (generated from a CSPRNG, shown once) and stored
 * idempotent responses that carry one, encrypted with AES-256-GCM so the worker can still sign
 * while a copy of the database alone does not reveal them. The key comes from WEBHOOK_SECRET_KEY through HKDF-SHA256; without it, a random
 * per-installation key is created in the database on first use (which only keeps secrets out
 * of casual reads such as logs and dumps of one table; serve and worker warn about it).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { ensureInstallationSecret } from './installation-secrets.repository.ts';

const INSTALLATION_KEY = 'webhook_secret_key';
const FORMAT = 'v1';

export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function deriveKey(material: Buffer | string): Buffer {
  return Buffer.from(hkdfSync('sha256', material, 'tasktracker', 'webhook-signing-secrets', 32));
}

async function installationKeyMaterial(ctx: AppContext): Promise<Buffer> {
  // Several processes may race to create it: the first insert wins and everyone reads it back.
  const stored = await ensureInstallationSecret(
    ctx.db,
    INSTALLATION_KEY,
    randomBytes(32).toString('base64'),
    ctx.clock.nowIso(),
  );
  return Buffer.from(stored, 'base64');
}

/** The encryption key for this context's configuration, derived once per context. */
export function secretKey(ctx: AppContext): Promise<Buffer> {
  const { state } = ctx;
  if (!state.secretKey) {
    const configured = ctx.config.webhooks.secretKey;
    const key = configured ? Promise.resolve(deriveKey(configured)) : installationKeyMaterial(ctx).then(deriveKey);
    // A failed lookup (database briefly down) must not be cached forever.
    key.catch(() => {
      if (state.secretKey === key) state.secretKey = undefined;
    });
    state.secretKey = key;
  }
  return state.secretKey;
}

export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [FORMAT, iv, cipher.getAuthTag(), ciphertext]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** Throws when the stored value was encrypted under another key (WEBHOOK_SECRET_KEY changed). */
export function decryptSecret(key: Buffer, stored: string): string {
  const [format, iv, tag, ciphertext] = stored.split('.');
  if (format !== FORMAT || !iv || !tag || ciphertext === undefined)
    throw new Error('unrecognised signing secret format');
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}
