/** The client a request came from, as the sign-in and session services record it. */
export interface Client {
  userAgent: string;
  ip: string;
  /** The request's id: the correlation_id of the audit records it writes. */
  requestId?: string;
}

/** An e-mail address in the form addresses are compared in: sign-in, invitations and resets find people by it. */
export const normalEmail = (email: string) => email.trim().toLowerCase();
