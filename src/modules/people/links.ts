import { randomBytes } from 'node:crypto';
import { invalid } from '../../http/errors.ts';

/**
 * What the people services share: links people receive carry a 256-bit token in the URL
 * fragment (never sent to a server, so never in a log); the database keeps only its SHA-256.
 */
export const newLinkToken = () => randomBytes(32).toString('base64url');

export const badLink = (what: string) =>
  invalid({ token: `is not a valid ${what} link, or it was used or has expired` });
