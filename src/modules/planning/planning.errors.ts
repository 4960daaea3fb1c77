import { isUniqueViolation } from '../../db/database.ts';
import { ApiError } from '../../http/errors.ts';

export const nameTaken = (what: string, name: string) =>
  new ApiError('ALREADY_EXISTS', `The project already has a ${what} named "${name}".`, { field: 'name' });

/** Runs a write whose one unique index is the name in the project: a violation answers that `name` is taken. */
export async function withUniqueName<R>(what: string, name: string, write: () => Promise<R>): Promise<R> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(what, name);
    throw error;
  }
}
