import { useEffect, useId, useRef } from 'react';

interface ConfirmDialogProps {
  isOpen: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  isBusy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * A modal question with Cancel and a confirming button. The browser's own modal dialog keeps
 * focus inside and closes on Escape; Cancel has the focus first, so Enter never destroys anything.
 */
export function ConfirmDialog({
  isOpen,
  title,
  message,
  confirmLabel,
  isBusy = false,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const cancelRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const messageId = useId();

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) {
      return;
    }
    if (isOpen && !dialog.open) {
      // jsdom has no showModal; the attribute alone still shows the dialog there
      if (typeof dialog.showModal === 'function') {
        dialog.showModal();
      } else {
        dialog.setAttribute('open', '');
      }
      cancelRef.current?.focus();
    } else if (!isOpen && dialog.open) {
      if (typeof dialog.close === 'function') {
        dialog.close();
      } else {
        dialog.removeAttribute('open');
      }
    }
  }, [isOpen]);

  return (
    <dialog
      ref={dialogRef}
      className="dialog"
      aria-labelledby={titleId}
      aria-describedby={messageId}
      onCancel={(event) => {
        // Escape: let React state decide whether it is open
        event.preventDefault();
        onCancel();
      }}
    >
      <h2 id={titleId} className="dialog__title">
        {title}
      </h2>
      <p id={messageId}>{message}</p>
      <div className="dialog__actions">
        <button
          ref={cancelRef}
          type="button"
          className="button button--secondary"
          onClick={onCancel}
          disabled={isBusy}
        >
          Cancel
        </button>
        <button
          type="button"
          className="button button--danger"
          onClick={onConfirm}
          disabled={isBusy}
        >
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
