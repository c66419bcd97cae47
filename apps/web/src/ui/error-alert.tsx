interface ErrorAlertProps {
  message: string;
  code?: string | undefined;
  details?: string | undefined;
  onClose: () => void;
}

/** A closable error box with the message and, when known, an error code and details. */
export function ErrorAlert({ message, code, details, onClose }: ErrorAlertProps) {
  return (
    <div className="alert alert--error" role="alert">
      <div className="alert__body">
        <p className="alert__message">{message}</p>
        {code ? <p className="alert__meta">Code: {code}</p> : null}
        {details ? <p className="alert__meta">Details: {details}</p> : null}
      </div>
      <button type="button" className="button button--ghost alert__close" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
