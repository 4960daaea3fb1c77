import { useQuery } from '@tanstack/react-query';
import { ErrorNote, Spinner, Table } from '../../ui/index.ts';
import { useMe } from '../session/session-provider.tsx';
import { GroupMappingSection } from './group-mapping.tsx';
import { oidcInfoQuery, oidcTestQuery, type OidcTestResult } from './api.ts';

/**
 * Settings → Sign-in: the identity provider people sign in with, and for owners a test sign-in
 * (docs/operating/oidc.md). The provider sends the browser back to `?result=ID` with its outcome.
 */
export function SignInSettings() {
  const me = useMe();
  const info = useQuery(oidcInfoQuery);
  const result = new URLSearchParams(window.location.search).get('result');
  if (info.isPending) return <Spinner />;
  if (!info.data?.enabled)
    return (
      <>
        <h2>Sign-in</h2>
        <ErrorNote error={info.error} />
        <p>
          People sign in with their e-mail and password. To let them sign in with your identity provider (Keycloak,
          Authentik, Google...), set the <code>OIDC_*</code> variables:{' '}
          <a href="/docs/operating/oidc/">OpenID Connect sign-in</a>.
        </p>
      </>
    );
  return (
    <>
      <h2>Sign-in with {info.data.name}</h2>
      <p>
        People sign in with {info.data.name}
        {info.data.password_sign_in ? ' or with their e-mail and password' : '; only owners may use a password'}.
      </p>
      {me.user.role === 'owner' ? (
        <>
          <p className="muted">
            A test sign-in runs the whole sign-in at {info.data.name} (sign in as anyone there) and shows the claims it
            sends and what they would map to here. Nobody is signed in and nothing changes.
          </p>
          <p>
            <a className="button" href="/api/console/oidc/test/start/">
              {result ? 'Run another test sign-in' : 'Run a test sign-in'}
            </a>
          </p>
          {result ? <TestResult id={result} /> : null}
          <GroupMappingSection />
        </>
      ) : (
        <p className="muted">Owners can run a test sign-in and change which groups give which roles here.</p>
      )}
    </>
  );
}

function TestResult({ id }: { id: string }) {
  const result = useQuery(oidcTestQuery(id));
  return (
    <section aria-labelledby="oidc-test-title">
      <h2 id="oidc-test-title">Test sign-in</h2>
      <ErrorNote error={result.error} />
      {result.isPending ? <Spinner /> : null}
      {result.data ? <Outcome result={result.data} /> : null}
    </section>
  );
}

function Outcome({ result }: { result: OidcTestResult }) {
  const plan = result.plan;
  return (
    <>
      {result.ok ? null : <p className="error">The provider's answer was refused: {result.error}</p>}
      {plan ? <p className={plan.outcome === 'refused' ? 'error' : 'note'}>{plan.message}</p> : null}
      {plan?.role ? (
        <>
          <h3>Roles</h3>
          <Table columns={['', 'Now', 'After sign-in']}>
            <tr>
              <td>Workspace role</td>
              <td>{plan.role.from ?? 'none (new person)'}</td>
              <td>
                {plan.role.to}
                {plan.role.keptLastOwner ? ' (kept: the last owner is never demoted)' : ''}
              </td>
            </tr>
            {plan.projects?.map((p) => (
              <tr key={p.project}>
                <td>Project {p.project}</td>
                <td>{p.from ?? 'not a member'}</td>
                <td>{p.to ?? 'not a member'}</td>
              </tr>
            ))}
          </Table>
          <p className="muted">Groups received: {plan.groups?.length ? plan.groups.join(', ') : 'none'}</p>
          {plan.missing_projects?.length ? (
            <p className="error">
              The project mapping names projects that do not exist: {plan.missing_projects.join(', ')}
            </p>
          ) : null}
        </>
      ) : null}
      {result.claims ? (
        <>
          <h3>Claims received</h3>
          <pre className="claims">{JSON.stringify(result.claims, null, 2)}</pre>
        </>
      ) : null}
    </>
  );
}
