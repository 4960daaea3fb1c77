import { Type } from '@sinclair/typebox';
import { MAX_QUERY_LENGTH } from './syntax.ts';

/** The parameters every endpoint that takes a query shares (docs/api/query-language.md). */
export const QueryText = Type.String({
  maxLength: MAX_QUERY_LENGTH,
  description:
    'A query in the query language (docs/api/query-language.md), e.g. `assignee = me() AND status_category != done ORDER BY due`. A query that cannot be run is refused with 400 INVALID_QUERY, `details.position` and `details.expected`.',
  examples: ['assignee = me() AND status_category != done'],
});

export const TimeZone = Type.String({
  maxLength: 64,
  description:
    "IANA time zone the query's dates and date functions are read in (`today()`, `endOfWeek()`, `due < +2w`). Default UTC.",
  examples: ['Europe/Berlin'],
});

export const QueryParameters = { q: Type.Optional(QueryText), tz: Type.Optional(TimeZone) };
