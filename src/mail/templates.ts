/** The e-mails people receive, as text. Each builder takes what the message says and nothing else. */
import type { MailMessage } from './mailer.ts';

export function passwordResetMail(to: string, name: string, link: { url: string; expires_at: string }): MailMessage {
  return {
    to: [to],
    subject: 'Reset your tasktracker password',
    text: `Someone (hopefully you) asked to reset the password of ${name}.\n\nOpen this link to choose a new one (it works once, until ${link.expires_at}):\n${link.url}\n\nIf it was not you, ignore this message.\n`,
  };
}

/** `inviter` null: the operator invited from the CLI. */
export function invitationMail(
  to: string,
  invitation: { inviter: string | null; organization: string; role: string; url: string; expires_at: string },
): MailMessage {
  const who = invitation.inviter ? `${invitation.inviter} invited you` : 'You are invited';
  return {
    to: [to],
    subject: `${who} to ${invitation.organization} on tasktracker`,
    text: `${who} to join ${invitation.organization} as ${invitation.role}.\n\nOpen this link to choose your name and password (it works once, until ${invitation.expires_at}):\n${invitation.url}\n`,
  };
}
