interface ErrorAlertProps {
  message: string;
  code?: string | undefined;
  details?: string | undefined;
  /** Shows a Close button that calls it; without, the box stays until its cause is gone. */
  onClose?: (() => void) | undefined;
}

/**
 * The error box: the message and, when known, an error code and details; closable when `onClose`
 * is given.
 */
export function ErrorAlert({ message, code, details, onClose }: ErrorAlertProps) {
  return (
    <div className="alert alert--error" role="alert">
      <div className="alert__body">
        <p className="alert__message">{message}</p>
        {code ? <p className="alert__meta">Code: {code}</p> : null}
        {details ? <p className="alert__meta">Details: {details}</p> : null}
      </div>
      {onClose ? (
        <button type="button" className="button button--ghost alert__close" onClick={onClose}>
          Close
        </button>
      ) : null}
    </div>
  );
}
