import type { FastifySchemaValidationError } from 'fastify';
import { ApiError } from '../../http/errors.ts';
import { validationFields } from '../../http/error-handler.ts';
import { bulkFailure, type BulkItemError } from './task-bulk.service.ts';

type Issue = Parameters<typeof validationFields>[0][number];

/**
 * Schema errors of a bulk body reported the way refused items are (`details.items`, one entry
 * per bad item with its own `fields`), so a client handles one shape whatever failed.
 * Problems with the body itself (no `tasks`, too many items) keep the usual `details.fields`.
 */
export function bulkValidationError(
  error: Error & { validation?: FastifySchemaValidationError[] },
  body: unknown,
): ApiError {
  const byItem = new Map<number, Issue[]>();
  const rest: Issue[] = [];
  for (const issue of (error.validation ?? []) as Issue[]) {
    const match = /^\/tasks\/(\d+)(\/.*)?$/.exec(issue.instancePath);
    if (!match) {
      rest.push(issue);
      continue;
    }
    const index = Number(match[1]);
    byItem.set(index, [...(byItem.get(index) ?? []), { ...issue, instancePath: match[2] ?? '' }]);
  }
  if (rest.length || byItem.size === 0) {
    const fields = validationFields(rest);
    return new ApiError('VALIDATION_ERROR', `Invalid body: ${Object.keys(fields).join(', ')}.`, {
      location: 'body',
      fields,
    });
  }
  const tasks = (body as { tasks?: unknown[] } | undefined)?.tasks ?? [];
  const items: BulkItemError[] = [...byItem.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, issues]) => {
      const key = (tasks[index] as { key?: unknown } | undefined)?.key;
      const fields = validationFields(issues);
      return {
        index,
        ...(typeof key === 'string' ? { key } : {}),
        code: 'VALIDATION_ERROR',
        message: `Invalid ${Object.keys(fields).join(', ')}.`,
        fields,
      };
    });
  return bulkFailure(items);
}
