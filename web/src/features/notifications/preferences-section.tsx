import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { NotificationPreferences, NotificationReason } from '../../lib/api-types.ts';
import { ErrorNote, Spinner } from '../../ui/index.ts';
import { notificationKeys, preferencesQuery, reasonLabel, updatePreferences } from './api.ts';

/** Per reason: told in the app, by e-mail, both or neither. Each tick is saved at once. */
export function NotificationPreferencesSection() {
  const client = useQueryClient();
  const preferences = useQuery(preferencesQuery);
  const change = useMutation({
    mutationFn: ({ reason, ...delivery }: { reason: NotificationReason; in_app?: boolean; email?: boolean }) =>
      updatePreferences(reason, delivery),
    // The tick shows at once; a refused change puts back what the server holds.
    onMutate: async ({ reason, ...delivery }) => {
      // A read still under way would put the old value back over the tick.
      await client.cancelQueries({ queryKey: notificationKeys.preferences });
      client.setQueryData<NotificationPreferences>(notificationKeys.preferences, (current) =>
        current ? { reasons: { ...current.reasons, [reason]: { ...current.reasons[reason], ...delivery } } } : current,
      );
    },
    onSuccess: (saved) => client.setQueryData(notificationKeys.preferences, saved),
    onError: () => client.invalidateQueries({ queryKey: notificationKeys.preferences }),
  });
  const reasons = preferences.data?.reasons;
  return (
    <section aria-labelledby="preferences-title">
      <h2 id="preferences-title">Notifications</h2>
      <p className="muted">How you are told, per reason. E-mail needs the server to send e-mail.</p>
      <ErrorNote error={preferences.error ?? change.error} />
      {preferences.isPending ? <Spinner /> : null}
      {reasons ? (
        <table className="preferences">
          <thead>
            <tr>
              <th scope="col">Reason</th>
              <th scope="col">In the app</th>
              <th scope="col">E-mail</th>
            </tr>
          </thead>
          <tbody>
            {(Object.keys(reasonLabel) as NotificationReason[]).map((reason) => (
              <tr key={reason}>
                <th scope="row">{reasonLabel[reason]}</th>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`${reasonLabel[reason]} in the app`}
                    checked={reasons[reason].in_app}
                    onChange={(e) => change.mutate({ reason, in_app: e.target.checked })}
                  />
                </td>
                <td>
                  <input
                    type="checkbox"
                    aria-label={`${reasonLabel[reason]} by e-mail`}
                    checked={reasons[reason].email}
                    onChange={(e) => change.mutate({ reason, email: e.target.checked })}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
