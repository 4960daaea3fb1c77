import type { Refusal } from './api.ts';

/**
 * Why a move was refused, until dismissed. A schedule conflict names the blockers and offers to
 * move the task anyway (the API's `force`), since a plan may knowingly start work early.
 */
export function RefusalNote({
  refusal,
  onForce,
  onDismiss,
}: {
  refusal: Refusal | null;
  onForce: (refusal: Refusal) => void;
  onDismiss: () => void;
}) {
  if (!refusal) return null;
  return (
    <div className="error refusal" role="alert">
      <span>{refusal.message}</span>
      {refusal.conflict ? (
        <button type="button" onClick={() => onForce(refusal)}>
          Move {refusal.task.key} anyway
        </button>
      ) : null}
      <button type="button" className="link" onClick={onDismiss}>
        Dismiss
      </button>
    </div>
  );
}
