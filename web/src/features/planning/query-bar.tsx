import { useEffect, useState } from 'react';

/** A query in the query language narrowing the screen; applied on Enter, so a half-typed one is never run. */
export function QueryBar({ query, onQuery }: { query: string; onQuery: (query: string) => void }) {
  const [text, setText] = useState(query);
  useEffect(() => setText(query), [query]);
  return (
    <form
      className="filters planning-query"
      role="search"
      aria-label="Filter by a query"
      onSubmit={(e) => {
        e.preventDefault();
        onQuery(text.trim());
      }}
    >
      <label className="filter grow">
        <span>Query</span>
        <input
          type="search"
          value={text}
          spellCheck={false}
          placeholder="e.g. label = bug AND status_category != done"
          onChange={(e) => setText(e.target.value)}
        />
      </label>
      <button type="submit">Apply</button>
      {query ? (
        <button type="button" className="link" onClick={() => onQuery('')}>
          Clear
        </button>
      ) : null}
      <a className="hint" href="/docs/api/query-language/" target="_blank" rel="noreferrer">
        Query language
      </a>
    </form>
  );
}
