import { useId, useRef, useState, type DragEvent, type ReactNode } from 'react';

import './drop-zone.css';

interface DropZoneProps {
  /** Told the first file dropped or chosen (undefined when none came). */
  onFile: (file: File | undefined) => void;
  /** What to drop, ending before the button ('… here, or'). */
  hint: ReactNode;
  buttonLabel: string;
  /** The hidden file input's accessible name. */
  inputLabel: string;
  accept: string;
  /** The button is off (an upload is on its way). */
  disabled?: boolean;
  testId: string;
  /** Shown above the hint. */
  title?: ReactNode;
  /** Shown under the button (the chosen file). */
  children?: ReactNode;
}

/**
 * A file drop zone of the admin area: drag and drop a file, or choose one with the button (the
 * same file again after a failure too). Files only: dragging text over it does nothing.
 */
export function DropZone({
  onFile,
  hint,
  buttonLabel,
  inputLabel,
  accept,
  disabled = false,
  testId,
  title,
  children,
}: DropZoneProps) {
  const hintId = `${useId()}-hint`;
  const inputRef = useRef<HTMLInputElement>(null);
  const [isDragging, setDragging] = useState(false);

  const handleDragOver = (event: DragEvent<HTMLDivElement>) => {
    if (!Array.from(event.dataTransfer.types).includes('Files')) {
      return;
    }
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };

  return (
    <div
      className={`drop-zone${isDragging ? ' drop-zone--active' : ''}`}
      onDragEnter={handleDragOver}
      onDragOver={handleDragOver}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        onFile(event.dataTransfer.files[0]);
      }}
      data-testid={testId}
    >
      {title ? <p className="drop-zone__title">{title}</p> : null}
      <p id={hintId} className="drop-zone__hint">
        {hint}
      </p>
      <button
        type="button"
        className="button button--secondary"
        onClick={() => inputRef.current?.click()}
        disabled={disabled}
        aria-describedby={hintId}
      >
        {buttonLabel}
      </button>
      <input
        ref={inputRef}
        type="file"
        accept={accept}
        hidden
        aria-label={inputLabel}
        onChange={(event) => {
          onFile(event.target.files?.[0]);
          // choosing the same file again after a failure fires change again
          event.target.value = '';
        }}
      />
      {children}
    </div>
  );
}
