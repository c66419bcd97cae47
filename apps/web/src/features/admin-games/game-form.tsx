import type { GameAccess } from '@portfolio/types';
import {
  CreateGameRequest,
  GAME_FRAME_MODES,
  GAME_ORIENTATIONS,
  GAME_SECTIONS,
  GAME_TOUCH_SUPPORT,
  UpdateGameRequest,
  type AdminGame,
  type GameFrameMode,
  type GameOrientation,
  type GameSection,
  type GameTouchSupport,
} from '@portfolio/types/game-host';
import { useId, useState, type FormEvent } from 'react';

import {
  ACCESS_LABELS,
  FRAME_MODE_LABELS,
  ORIENTATION_LABELS,
  SECTION_LABELS,
  TOUCH_LABELS,
} from './game-labels';

/** The form's fields as typed (order as text, so an empty box stays empty). */
export interface GameFormValues {
  id: string;
  title: string;
  description: string;
  instructions: string;
  section: GameSection;
  access: GameAccess;
  order: string;
  /** How it is shown; width and height as typed, used unless the mode is default. */
  frameMode: GameFrameMode;
  frameWidth: string;
  frameHeight: string;
  touch: GameTouchSupport;
  orientation: GameOrientation;
}

export const EMPTY_GAME: GameFormValues = {
  id: '',
  title: '',
  description: '',
  instructions: '',
  section: 'html5',
  access: 'public',
  order: '',
  frameMode: 'default',
  frameWidth: '',
  frameHeight: '',
  touch: 'playable',
  orientation: 'any',
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
    frameMode: game.frame.mode,
    frameWidth: game.frame.mode === 'default' ? '' : String(game.frame.width),
    frameHeight: game.frame.mode === 'default' ? '' : String(game.frame.height),
    touch: game.touch,
    orientation: game.orientation,
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
  frame: 'Frame',
  touch: 'Touch screens',
  orientation: 'Orientation',
};

type Checked<T> = { ok: true; body: T } | { ok: false; message: string };

function firstIssue(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0];
  if (!issue) {
    return 'Check the form';
  }
  const field = String(issue.path[0] ?? '');
  // the frame's width or height: 'Frame width must be 1 or more'
  const part = issue.path.length > 1 ? ` ${String(issue.path[1])}` : '';
  return `${FIELD_LABELS[field] ?? field}${part} ${issue.message}`.trim();
}

function orderOf(text: string): number | undefined {
  const trimmed = text.trim();
  // NaN for words: the schema then says what is wrong
  return trimmed === '' ? undefined : Number(trimmed);
}

/** The frame size the values say (the schema then checks the numbers). */
function frameOf(values: GameFormValues) {
  if (values.frameMode === 'default') {
    return { mode: values.frameMode };
  }
  const number = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim()));
  return {
    mode: values.frameMode,
    width: number(values.frameWidth),
    height: number(values.frameHeight),
  };
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
    frame: frameOf(values),
    touch: values.touch,
    orientation: values.orientation,
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
    frame: frameOf(values),
    touch: values.touch,
    orientation: values.orientation,
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
    ...(next.frame && JSON.stringify(next.frame) !== JSON.stringify(game.frame)
      ? { frame: next.frame }
      : {}),
    ...(next.touch !== game.touch ? { touch: next.touch } : {}),
    ...(next.orientation !== game.orientation ? { orientation: next.orientation } : {}),
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
 * A game's fields (id, title, description, instructions, section, access, order, and how it is
 * shown: frame size, touch screens, orientation). Errors, from
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
      <fieldset className="game-form__display">
        <legend>How it is shown</legend>
        <div className="game-form__row">
          <div className="form__field">
            <label htmlFor={field('frameMode')}>Frame</label>
            <select
              id={field('frameMode')}
              value={values.frameMode}
              onChange={(event) => {
                const mode = GAME_FRAME_MODES.find((name) => name === event.target.value);
                if (mode) {
                  change('frameMode', mode);
                }
              }}
              aria-describedby={`${field('frameMode')}-hint`}
            >
              {GAME_FRAME_MODES.map((mode) => (
                <option key={mode} value={mode}>
                  {FRAME_MODE_LABELS[mode]}
                </option>
              ))}
            </select>
          </div>
          {values.frameMode === 'default' ? null : (
            <>
              <div className="form__field">
                <label htmlFor={field('frameWidth')}>
                  {values.frameMode === 'fixed' ? 'Width (px)' : 'Width (ratio)'}
                </label>
                <input
                  id={field('frameWidth')}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={8192}
                  step={1}
                  value={values.frameWidth}
                  onChange={(event) => change('frameWidth', event.target.value)}
                  required
                />
              </div>
              <div className="form__field">
                <label htmlFor={field('frameHeight')}>
                  {values.frameMode === 'fixed' ? 'Height (px)' : 'Height (ratio)'}
                </label>
                <input
                  id={field('frameHeight')}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={8192}
                  step={1}
                  value={values.frameHeight}
                  onChange={(event) => change('frameHeight', event.target.value)}
                  required
                />
              </div>
            </>
          )}
        </div>
        <p id={`${field('frameMode')}-hint`} className="form__hint admin-muted">
          A fixed size is the game&apos;s canvas in CSS pixels (e.g. 1200 × 800): the frame gets
          that size and is scaled down to fit the window. An aspect ratio (e.g. 16 × 9) keeps the
          frame that shape for a game that fills its window.
        </p>
        <div className="game-form__row">
          <div className="form__field">
            <label htmlFor={field('touch')}>Touch screens</label>
            <select
              id={field('touch')}
              value={values.touch}
              onChange={(event) => {
                const touch = GAME_TOUCH_SUPPORT.find((name) => name === event.target.value);
                if (touch) {
                  change('touch', touch);
                }
              }}
            >
              {GAME_TOUCH_SUPPORT.map((touch) => (
                <option key={touch} value={touch}>
                  {TOUCH_LABELS[touch]}
                </option>
              ))}
            </select>
          </div>
          <div className="form__field">
            <label htmlFor={field('orientation')}>Orientation</label>
            <select
              id={field('orientation')}
              value={values.orientation}
              onChange={(event) => {
                const orientation = GAME_ORIENTATIONS.find((name) => name === event.target.value);
                if (orientation) {
                  change('orientation', orientation);
                }
              }}
            >
              {GAME_ORIENTATIONS.map((orientation) => (
                <option key={orientation} value={orientation}>
                  {ORIENTATION_LABELS[orientation]}
                </option>
              ))}
            </select>
          </div>
        </div>
      </fieldset>
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
