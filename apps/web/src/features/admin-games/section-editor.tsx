import { useCallback, useState } from 'react';

import { serverMessageOr } from '../../lib/server-message';

/*
 * What the game page's catalogue sections (leaderboards, achievements) share: a form that adds
 * or edits one entry, a command that reloads the list and says what it did, and the alert and
 * status lines under the form.
 */

/** The values of the section's form and whether they edit an existing entry. */
export function useEntryEditor<V>(empty: V) {
  const [values, setValues] = useState<V>(empty);
  const [isEditing, setEditing] = useState(false);
  const change = <K extends keyof V>(key: K, value: V[K]) =>
    setValues((current) => ({ ...current, [key]: value }));
  /** Fills the form: with an entry to edit, or with the first values of a new one. */
  const fill = (next: V, isExisting: boolean) => {
    setValues(next);
    setEditing(isExisting);
  };
  return { values, isEditing, change, fill, reset: () => fill(empty, false) };
}

/** The section's alert and status, and `run`: one command, then the reload and its report. */
export function useSectionCommands(reload: () => Promise<void>) {
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const run = useCallback(
    async (action: () => Promise<unknown>, done: string, fallback: string) => {
      setError(null);
      setStatus(null);
      try {
        await action();
        await reload();
        setStatus(done);
        return true;
      } catch (failure) {
        setError(serverMessageOr(failure, fallback));
        return false;
      }
    },
    [reload],
  );
  return { error, status, setError, setStatus, run };
}

/** The alert (errors) and the status line (what a command did) of a section. */
export function SectionMessages({
  error,
  status,
}: {
  error: string | null;
  status: string | null;
}) {
  return (
    <>
      <div role="alert">{error ? <p className="alert alert--error">{error}</p> : null}</div>
      <p role="status" className="form__hint form__hint--ok">
        {status}
      </p>
    </>
  );
}

interface EditorActionsProps {
  /** What the form saves: 'Leaderboard' gives 'Add Leaderboard' and 'Save Leaderboard'. */
  noun: string;
  isEditing: boolean;
  isBusy?: boolean;
  onCancel: () => void;
}

/** The form's submit button, and Cancel while an entry is edited. */
export function EditorActions({ noun, isEditing, isBusy = false, onCancel }: EditorActionsProps) {
  return (
    <div className="form__actions">
      <button type="submit" className="button button--primary" disabled={isBusy}>
        {isEditing ? `Save ${noun}` : `Add ${noun}`}
      </button>
      {isEditing && (
        <button type="button" className="button button--secondary" onClick={onCancel}>
          Cancel
        </button>
      )}
    </div>
  );
}
