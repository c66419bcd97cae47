import { type FormEvent, type ReactNode, useId, useState } from 'react';

import type { FieldErrors } from '../../lib/zod-issues';

/** A form's values as a request, or each field's first problem. */
export type Checked<B> = { ok: true; body: B } | { ok: false; errors: FieldErrors };

/** What an item form's fields are drawn with. */
export interface ItemFields<V> {
  formId: string;
  values: V;
  errors: FieldErrors;
  /** Changes some values: given as they are, or made from the values held then. */
  change: (patch: Partial<V> | ((held: V) => Partial<V>)) => void;
}

interface ItemFormProps<V, B> {
  /** The form's accessible name ('Add a project', 'Edit Space Game'). */
  label: string;
  initial: V;
  check: (values: V) => Checked<B>;
  submitLabel: string;
  /** Sends the checked request; a rejection's message is shown and the values stay. */
  onSubmit: (body: B) => Promise<void>;
  onCancel: () => void;
  /** The item as its public page would show it. */
  preview: (values: V) => ReactNode;
  children: (fields: ItemFields<V>) => ReactNode;
}

/**
 * The form of one item of an ordered, published list (a gallery project, a tutorial): its
 * fields, each field's own error (the first one in error takes the focus, so its message is
 * read), the server's refusal, Save, Preview and Cancel.
 */
export function ItemForm<V, B>({
  label,
  initial,
  check,
  submitLabel,
  onSubmit,
  onCancel,
  preview,
  children,
}: ItemFormProps<V, B>) {
  const formId = useId();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [isPreviewing, setPreviewing] = useState(false);

  const change = (patch: Partial<V> | ((held: V) => Partial<V>)) =>
    setValues((held) => ({ ...held, ...(typeof patch === 'function' ? patch(held) : patch) }));

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setServerError(null);
    const checked = check(values);
    if (!checked.ok) {
      setErrors(checked.errors);
      const first = Object.keys(checked.errors)[0];
      if (first) {
        document.getElementById(`${formId}-${first.replace(/\./g, '-')}`)?.focus();
      }
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await onSubmit(checked.body);
    } catch (failure) {
      setServerError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      className="form content-form"
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      aria-label={label}
    >
      {children({ formId, values, errors, change })}
      {serverError ? (
        <p className="alert alert--error" role="alert">
          {serverError}
        </p>
      ) : null}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={isBusy}>
          {isBusy ? 'Saving...' : submitLabel}
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => setPreviewing((shown) => !shown)}
          aria-expanded={isPreviewing}
        >
          {isPreviewing ? 'Hide preview' : 'Preview'}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {isPreviewing ? preview(values) : null}
    </form>
  );
}
