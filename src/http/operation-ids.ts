/**
 * Operation ids of the published document, derived from method and path in this one place so
 * that generated clients get stable method names (`listTasks`, `createTask`, `getTask`).
 *
 * The rule: the words of the path after its last parameter name the resource (a namespace in
 * front of them, such as `webhooks/`, becomes a singular prefix); a collection answers
 * `list<Plural>` and `create<Singular>`, an item `get`, `update` (PUT, or PATCH when the path
 * has no PUT), `patch` and `delete`. Actions and singletons that the rule would name badly are
 * listed in NAMED below.
 */
const NAMED: Record<string, string> = {
  'GET /me/': 'getMe',
  'PATCH /me/': 'updateMe',
  'GET /me/notifications/': 'listMyNotifications',
  'POST /me/notifications/read/': 'markMyNotificationsRead',
  'GET /me/notification-preferences/': 'getMyNotificationPreferences',
  'PATCH /me/notification-preferences/': 'updateMyNotificationPreferences',
  'POST /projects/{project_key}/tasks/bulk/': 'bulkCreateTasks',
  'POST /projects/{project_key}/tasks/bulk-update/': 'bulkUpdateTasks',
  'GET /projects/{project_key}/board/': 'getBoard',
  'GET /projects/{project_key}/reports/burndown/': 'getBurndownReport',
  'GET /projects/{project_key}/reports/flow/': 'getFlowReport',
  'GET /projects/{project_key}/reports/cycle-time/': 'getCycleTimeReport',
  'GET /projects/{project_key}/reports/velocity/': 'getVelocityReport',
  'GET /tasks/{task_key}/activities/': 'listTaskActivities',
  'POST /tasks/{task_key}/assign/': 'assignTask',
  'POST /tasks/{task_key}/follow/': 'followTask',
  'DELETE /tasks/{task_key}/follow/': 'unfollowTask',
  'GET /tasks/{task_key}/followers/': 'listTaskFollowers',
  'POST /tasks/{task_key}/link/': 'linkTasks',
  'GET /tasks/{task_key}/links/': 'listTaskLinks',
  'DELETE /tasks/{task_key}/links/{id}/': 'deleteTaskLink',
  'POST /tasks/{task_key}/attachments/': 'uploadAttachment',
  'GET /attachments/{id}/content/': 'downloadAttachment',
  'POST /custom-fields/reorder/': 'reorderCustomFieldOptions',
  'POST /statuses/reorder/': 'reorderStatuses',
  'GET /webhooks/catalog/': 'listWebhookEventTypes',
  'POST /webhooks/endpoints/{id}/test/': 'testWebhookEndpoint',
  'POST /webhooks/deliveries/{id}/replay/': 'replayWebhookDelivery',
  'POST /webhooks/verify/': 'verifyWebhookSignature',
  'GET /standups/me/': 'getMyStandup',
  'PUT /standups/me/': 'submitMyStandup',
  'POST /standups/me/redraft/': 'redraftMyStandup',
  'POST /standups/me/skip/': 'skipMyStandup',
  'GET /standups/worklist/{user_id}/': 'getStandupWorklist',
  'GET /standups/history/{user_id}/': 'listStandupHistory',
  'GET /standups/settings/': 'getStandupSettings',
  'PATCH /standups/settings/': 'updateStandupSettings',
  'GET /search/': 'searchTasks',
  'GET /tasks/': 'queryTasks',
  'GET /views/{id}/tasks/': 'listViewTasks',
  'GET /changes/tasks/': 'listTaskChanges',
  'GET /events/stream/': 'streamEvents',
};

const PREFIX = '/api/v1';

const isParam = (segment: string): boolean => segment.startsWith('{');

const pascal = (segment: string): string =>
  segment
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('ses')) return word.slice(0, -2);
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

/**
 * `path` is an OpenAPI path (`/api/v1/tasks/{task_key}/`); `methodsOfPath` lists every method
 * the path has, so that a PATCH without a PUT beside it is `update`.
 */
export function operationIdOf(method: string, path: string, methodsOfPath: readonly string[]): string {
  const local = path.startsWith(PREFIX) ? path.slice(PREFIX.length) : path;
  const verb = method.toUpperCase();
  const named = NAMED[`${verb} ${local}`];
  if (named) return named;

  const segments = local.split('/').filter(Boolean);
  const item = isParam(segments.at(-1) ?? '');
  const words = item ? segments.slice(0, -1) : segments;
  const lastParam = words.map(isParam).lastIndexOf(true);
  const nouns = words.slice(lastParam + 1).map((word) => pascal(word));
  const namespace = nouns.slice(0, -1).map(singular).join('');
  const noun = nouns.at(-1) ?? '';
  const one = namespace + singular(noun);

  if (!item) {
    if (verb === 'GET') return `list${namespace}${noun}`;
    if (verb === 'POST') return `create${one}`;
  } else {
    const hasPut = methodsOfPath.some((m) => m.toUpperCase() === 'PUT');
    const verbs: Record<string, string> = {
      GET: 'get',
      PUT: 'update',
      PATCH: hasPut ? 'patch' : 'update',
      DELETE: 'delete',
    };
    if (verbs[verb]) return `${verbs[verb]}${one}`;
  }
  throw new Error(`No operation id rule for ${verb} ${path}: name it in src/http/operation-ids.ts`);
}
