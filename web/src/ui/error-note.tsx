import { ApiError } from '../lib/http.ts';

/** A failed call as the person sees it: the service's message and the request id to quote. */
export function ErrorNote({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const api = error instanceof ApiError ? error : null;
  return (
    <div className="error" role="alert">
      {title ? <strong>{title}: </strong> : null}
      {api ? api.message : error instanceof Error ? error.message : String(error)}
      {api?.requestId ? <span className="request-id"> (request id {api.requestId})</span> : null}
    </div>
  );
}
