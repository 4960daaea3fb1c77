import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { AuthFrame } from '../auth/auth-frame.tsx';
import { oidcInfoQuery } from './api.ts';

/** Why the identity provider's sign-in was refused, in the person's terms (reasons: docs/operating/oidc.md). */
const REASONS: Record<string, { title: string; text: (provider: string) => string }> = {
  not_allowed: {
    title: 'Ask your admin for access',
    text: (provider) =>
      `You signed in with ${provider}, but there is no account for you here yet. Ask an owner or admin of this tracker to invite you, then sign in again.`,
  },
  email_unverified: {
    title: 'Your e-mail address is not verified',
    text: (provider) =>
      `${provider} did not confirm your e-mail address, so it cannot be matched to an account. Verify it there, or ask your admin.`,
  },
  deactivated: {
    title: 'Your account is deactivated',
    text: () => 'Your account in this tracker is deactivated. Ask an owner or admin to reactivate it.',
  },
  state: {
    title: 'The sign-in expired',
    text: () => 'The sign-in did not finish in time, was already used, or started in another browser. Start again.',
  },
  provider: {
    title: 'The sign-in failed',
    text: (provider) => `${provider} did not complete the sign-in. Try again; if it keeps failing, tell your admin.`,
  },
};

const FALLBACK = {
  title: 'Sign-in with your identity provider is not set up correctly',
  text: () => 'Tell your admin: the service log says what is wrong.',
};

export function SignInProblem() {
  const reason = new URLSearchParams(window.location.search).get('reason') ?? '';
  const info = useQuery(oidcInfoQuery);
  const provider = info.data?.name ?? 'your identity provider';
  const { title, text } = REASONS[reason] ?? FALLBACK;
  return (
    <AuthFrame title={title}>
      <p>{text(provider)}</p>
      <p>
        <Link href="/sign-in">Back to sign-in</Link>
      </p>
    </AuthFrame>
  );
}
