import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { useMe } from '../session/session-provider.tsx';
import { errorNotice, useNotify } from '../../ui/index.ts';
import { taskQuery, updateTask } from './api.ts';
import { withTask } from './filters.ts';
import { requestField, storeTask } from './store.ts';

/**
 * What `a`, `s` and `l` do to a task: assign it to me at once (against the version read, with
 * If-Match), or open it (beside the board or list, else as its page) with the focus on its
 * status or its labels.
 */
export function useTaskShortcuts() {
  const client = useQueryClient();
  const notify = useNotify();
  const me = useMe();
  const [location, navigate] = useLocation();
  return (key: string, what: 'assign' | 'status' | 'labels') => {
    if (what === 'assign') {
      void (async () => {
        try {
          const loaded = await client.fetchQuery({ ...taskQuery(key), staleTime: 0 });
          const saved = await updateTask(key, { assignee: me.user.id }, loaded.etag);
          storeTask(client, saved.task, saved.etag);
          notify({ kind: 'info', message: `${key} is assigned to you.` });
        } catch (error) {
          notify({ ...errorNotice(error), message: `${key} was not assigned: ${errorNotice(error).message}` });
        }
      })();
      return;
    }
    requestField(what);
    if (document.querySelector(`[data-open-task="${key}"]`)) return;
    navigate(/^\/p\/[^/]+\/(board|list)/.test(location) ? withTask(key) : `/t/${key}`);
  };
}
