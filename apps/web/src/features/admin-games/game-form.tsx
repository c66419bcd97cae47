import type { GameAccess } from '@portfolio/types';
import {
  CreateGameRequest,
  GAME_SECTIONS,
  UpdateGameRequest,
  type AdminGame,
  type GameSection,
} from '@portfolio/types/game-host';
import { useId, useState, type FormEvent } from 'react';

import { ACCESS_LABELS, SECTION_LABELS } from './game-labels';

/** The form's fields as typed (order as text, so an empty box stays empty). */
export interface GameFormValues {
  id: string;
  title: string;
  description: string;
  instructions: string;
  section: GameSection;
  access: GameAccess;
  order: string;
}

export const EMPTY_GAME: GameFormValues = {
  id: '',
  title: '',
  description: '',
  instructions: '',
  section: 'html5',
  access: 'public',
  order: '',
};

export function valuesOf(game: AdminGame): GameFormValues {
  return {
    id: game.id,
    title: game.title,
    description: game.description,
    instructions: game.instructions,
    section: game.section,
    access: game.access,
    order: String(game.order),
  };
}

const FIELD_LABELS: Record<string, string> = {
  id: 'Game id',
  title: 'Title',
  description: 'Description',
  instructions: 'Instructions',
  section: 'Section',
  access: 'Access',
  order: 'Order',
};

type Checked<T> = { ok: true; body: T } | { ok: false; message: string };

function firstIssue(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0];
  if (!issue) {
    return 'Check the form';
  }
  const field = String(issue.path[0] ?? '');
  return `${FIELD_LABELS[field] ?? field} ${issue.message}`.trim();
}

function orderOf(text: string): number | undefined {
  const trimmed = text.trim();
  // NaN for words: the schema then says what is wrong
  return trimmed === '' ? undefined : Number(trimmed);
}

/** The create request these values make, or what is wrong with them (as the server would say). */
export function checkNewGame(values: GameFormValues): Checked<CreateGameRequest> {
  const order = orderOf(values.order);
  const result = CreateGameRequest.safeParse({
    id: values.id.trim(),
    title: values.title,
    description: values.description,
    instructions: values.instructions,
    section: values.section,
    access: values.access,
    ...(order === undefined ? {} : { order }),
  });
  return result.success
    ? { ok: true, body: result.data }
    : { ok: false, message: firstIssue(result.error.issues) };
}

/** The update request holding only what changed from `game`, or what is wrong. */
export function checkGameChanges(
  game: AdminGame,
  values: GameFormValues,
): Checked<UpdateGameRequest> {
  const order = orderOf(values.order);
  if (order === undefined) {
    return { ok: false, message: 'Order is required' };
  }
  const result = UpdateGameRequest.safeParse({
    title: values.title,
    description: values.description,
    instructions: values.instructions,
    section: values.section,
    access: values.access,
    order,
  });
  if (!result.success) {
    return { ok: false, message: firstIssue(result.error.issues) };
  }
  const next = result.data;
  const changes: UpdateGameRequest = {
    ...(next.title !== game.title ? { title: next.title } : {}),
    ...(next.description !== game.description ? { description: next.description } : {}),
    ...(next.instructions !== game.instructions ? { instructions: next.instructions } : {}),
    ...(next.section !== game.section ? { section: next.section } : {}),
    ...(next.access !== game.access ? { access: next.access } : {}),
    ...(next.order !== game.order ? { order: next.order } : {}),
  };
  return { ok: true, body: changes };
}

interface GameFormProps {
  initial: GameFormValues;
  /** 'create' asks for the id; 'edit' shows it fixed. */
  mode: 'create' | 'edit';
  submitLabel: string;
  busyLabel: string;
  /** Sends the values; a rejection's message is shown and the values stay as typed. */
  onSubmit: (values: GameFormValues) => Promise<void>;
  /** Message shown (politely) after a successful submit. */
  successMessage?: string;
  onCancel?: () => void;
}

/**
 * A game's fields (id, title, description, instructions, section, access, order). Errors, from
 * the form's own check or the server, show in an alert above the buttons; nothing typed is lost.
 */
export function GameForm({
  initial,
  mode,
  submitLabel,
  busyLabel,
  onSubmit,
  successMessage,
  onCancel,
}: GameFormProps) {
  const prefix = useId();
  const [values, setValues] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const errorId = `${prefix}-error`;

  const change = <K extends keyof GameFormValues>(key: K, value: GameFormValues[K]) => {
    setValues((held) => ({ ...held, [key]: value }));
    setStatus(null);
  };

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(null);
    setStatus(null);
    setBusy(true);
    try {
      await onSubmit(values);
      if (successMessage) {
        setStatus(successMessage);
      }
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  const field = (key: keyof GameFormValues) => `${prefix}-${key}`;
  const describedBy = error ? errorId : undefined;

  return (
    <form className="form game-form" onSubmit={(event) => void handleSubmit(event)} noValidate>
      {mode === 'create' ? (
        <div className="form__field">
          <label htmlFor={field('id')}>Game id</label>
          <input
            id={field('id')}
            value={values.id}
            onChange={(event) => change('id', event.target.value)}
            required
            maxLength={64}
            // the form opens on "Add Game": typing starts here
            autoFocus
            autoComplete="off"
            spellCheck={false}
            aria-describedby={`${field('id')}-hint`}
          />
          <p id={`${field('id')}-hint`} className="form__hint admin-muted">
            Letters, digits, _ and -: the game&apos;s address (/games?play=id). It cannot change
            later.
          </p>
        </div>
      ) : null}
      <div className="form__field">
        <label htmlFor={field('title')}>Title</label>
        <input
          id={field('title')}
          value={values.title}
          onChange={(event) => change('title', event.target.value)}
          required
          maxLength={80}
          aria-describedby={describedBy}
        />
      </div>
      <div className="form__field">
        <label htmlFor={field('description')}>Description</label>
        <textarea
          id={field('description')}
          value={values.description}
          onChange={(event) => change('description', event.target.value)}
          rows={3}
          maxLength={500}
        />
      </div>
      <div className="form__field">
        <label htmlFor={field('instructions')}>Instructions</label>
        <textarea
          id={field('instructions')}
          value={values.instructions}
          onChange={(event) => change('instructions', event.target.value)}
          rows={3}
          maxLength={2000}
        />
      </div>
      <div className="game-form__row">
        <div className="form__field">
          <label htmlFor={field('section')}>Section</label>
          <select
            id={field('section')}
            value={values.section}
            onChange={(event) => {
              const section = GAME_SECTIONS.find((name) => name === event.target.value);
              if (section) {
                change('section', section);
              }
            }}
          >
            {GAME_SECTIONS.map((section) => (
              <option key={section} value={section}>
                {SECTION_LABELS[section]}
              </option>
            ))}
          </select>
        </div>
        <div className="form__field">
          <label htmlFor={field('access')}>Access</label>
          <select
            id={field('access')}
            value={values.access}
            onChange={(event) =>
              change('access', event.target.value === 'subscriber' ? 'subscriber' : 'public')
            }
          >
            <option value="public">{ACCESS_LABELS.public}</option>
            <option value="subscriber">{ACCESS_LABELS.subscriber}</option>
          </select>
        </div>
        <div className="form__field">
          <label htmlFor={field('order')}>Order</label>
          <input
            id={field('order')}
            type="number"
            inputMode="numeric"
            min={0}
            max={10000}
            step={1}
            value={values.order}
            onChange={(event) => change('order', event.target.value)}
            placeholder={mode === 'create' ? 'Last' : undefined}
          />
        </div>
      </div>
      {error ? (
        <p id={errorId} className="alert alert--error" role="alert">
          {error}
        </p>
      ) : null}
      <p className="form__hint form__hint--ok" role="status">
        {status}
      </p>
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={isBusy}>
          {isBusy ? busyLabel : submitLabel}
        </button>
        {onCancel ? (
          <button type="button" className="button button--secondary" onClick={onCancel}>
            Cancel
          </button>
        ) : null}
      </div>
    </form>
  );
}
