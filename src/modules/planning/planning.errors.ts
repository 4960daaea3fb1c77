import { ApiError } from '../../http/errors.ts';

export const nameTaken = (what: string, name: string) =>
  new ApiError('ALREADY_EXISTS', `The project already has a ${what} named "${name}".`, { field: 'name' });
