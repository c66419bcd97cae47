import type { ReactNode } from 'react';

import { errorIdOf, type FieldErrors } from './field-errors';

interface FormFieldProps {
  formId: string;
  /** The field's path in the request ('title', 'media.0.source'). */
  name: string;
  label: string;
  errors: FieldErrors;
  hint?: string;
  /** The control, given its id and what describes it. */
  children: (props: {
    id: string;
    'aria-invalid': boolean;
    'aria-describedby': string | undefined;
  }) => ReactNode;
}

/** A label, the control, its hint and its own error message right under it. */
export function FormField({ formId, name, label, errors, hint, children }: FormFieldProps) {
  const id = `${formId}-${name.replace(/\./g, '-')}`;
  const error = errors[name];
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? errorIdOf(formId, name) : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div className="form__field">
      <label htmlFor={id}>{label}</label>
      {children({ id, 'aria-invalid': error !== undefined, 'aria-describedby': describedBy })}
      {hint ? (
        <p id={hintId} className="form__hint admin-muted">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="form__hint form__hint--bad">
          {label} {error}
        </p>
      ) : null}
    </div>
  );
}
