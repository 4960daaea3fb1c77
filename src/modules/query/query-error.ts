import { ApiError } from '../../http/errors.ts';

/**
 * A query that cannot be run, answered as 400 INVALID_QUERY: the message says what is wrong and
 * where, `details.position` is the 0-based character offset, `details.expected` what would have
 * been valid there.
 */
export class QueryError extends ApiError {
  constructor(
    message: string,
    readonly position: number,
    readonly expected: string[],
  ) {
    super('INVALID_QUERY', message, { position, expected });
  }
}
