import { createHash, randomBytes } from 'node:crypto';

const TOKEN_PREFIX = 'tt_';

/** An opaque bearer token: 256 random bits. Only its SHA-256 is stored. */
export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The first characters, kept so an operator can recognise a token without storing it. */
export function displayPrefix(token: string): string {
  return token.slice(0, TOKEN_PREFIX.length + 6);
}
