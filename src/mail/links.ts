import type { AppContext } from '../context.ts';
import type { Log } from '../logger.ts';

/**
 * The base of every link that leaves in an e-mail: PUBLIC_BASE_URL, and nothing else. A link
 * built from a request's Host or X-Forwarded-Host would let whoever sends the request choose
 * where the link points (and so receive the token of a stranger's reset link). Without
 * PUBLIC_BASE_URL no e-mail carrying a link is sent (docs/operating/security.md).
 */
export function emailedLinkBase(ctx: Pick<AppContext, 'config'>): string | null {
  return ctx.config.publicBaseUrl;
}

/** At start: say once that e-mails carrying links stay unsent until PUBLIC_BASE_URL is set. */
export function warnAboutEmailedLinks(ctx: Pick<AppContext, 'config'>, log: Log): void {
  if (ctx.config.smtp.url && !emailedLinkBase(ctx))
    log.warn(
      'SMTP_URL is set but PUBLIC_BASE_URL is not: invitation and password-reset e-mails are not sent, since their links need the address people reach the service at (docs/operating/security.md)',
    );
}
