import { useEffect, useId, useRef, type ReactNode } from 'react';

/** A modal dialog on the native <dialog> element: focus trap, Escape and backdrop come with it. */
export function Dialog({
  open,
  onClose,
  title,
  children,
  wide,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  children: ReactNode;
  wide?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      dialog.showModal();
      // showModal() focuses the first focusable element, the header's close button; what the
      // person types at once (a title after `c`, a query after `/`) belongs in the first field.
      const first =
        dialog.querySelector<HTMLElement>('[data-autofocus]') ??
        dialog.querySelector<HTMLElement>('input, select, textarea');
      first?.focus();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog wide' : 'dialog'}
      aria-labelledby={titleId}
      onClose={onClose}
      onCancel={onClose}
    >
      {open ? (
        <>
          <header className="dialog-head">
            <h2 id={titleId}>{title}</h2>
            <button type="button" className="link" aria-label="Close" onClick={onClose}>
              ×
            </button>
          </header>
          {children}
        </>
      ) : null}
    </dialog>
  );
}
