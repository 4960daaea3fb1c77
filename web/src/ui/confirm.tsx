import type { ReactNode } from 'react';
import { Dialog } from './dialog.tsx';

/**
 * Asks before something that cannot be undone, saying what is lost. The focus starts on
 * Cancel, so Enter or Space pressed out of habit loses nothing.
 */
export function ConfirmDialog({
  open,
  title,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  busy,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  cancelLabel?: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <Dialog open={open} onClose={onClose} title={title}>
      <div className="stack">
        {children}
        <div className="actions">
          <button type="button" className="danger" disabled={busy} onClick={onConfirm}>
            {confirmLabel}
          </button>
          <button type="button" data-autofocus="" onClick={onClose}>
            {cancelLabel}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
