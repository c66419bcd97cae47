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

import { type Issue, issueSentence } from '../../lib/zod-issues';
import { FormField, FormGroup, FormRow, SelectField } from '../../ui/form-field';

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

const firstIssue = (issues: readonly Issue[]) =>
  // the frame's width or height: 'Frame width must be 1 or more'
  issueSentence(issues, { labels: FIELD_LABELS, fallback: 'Check the form' });

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

  const change: ChangeValue = (key, value) => {
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

  const fields = { prefix, values, mode, change };
  return (
    <form className="form game-form" onSubmit={(event) => void handleSubmit(event)} noValidate>
      <GameTextFields {...fields} errorId={error ? errorId : undefined} />
      <GameDisplayFields {...fields} />
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

type ChangeValue = <K extends keyof GameFormValues>(key: K, value: GameFormValues[K]) => void;

interface FieldsProps {
  /** The form's id: each field's id is the prefix and its name. */
  prefix: string;
  values: GameFormValues;
  mode: 'create' | 'edit';
  change: ChangeValue;
}

/** What the game is: id (new games only), title, texts, section, access and order. */
function GameTextFields({
  prefix,
  values,
  mode,
  change,
  errorId,
}: FieldsProps & { errorId: string | undefined }) {
  const textArea = (key: 'description' | 'instructions', label: string, maxLength: number) => (
    <FormField id={`${prefix}-${key}`} label={label}>
      {(control) => (
        <textarea
          {...control}
          value={values[key]}
          onChange={(event) => change(key, event.target.value)}
          rows={3}
          maxLength={maxLength}
        />
      )}
    </FormField>
  );
  return (
    <>
      {mode === 'create' ? (
        <FormField
          id={`${prefix}-id`}
          label="Game id"
          value={values.id}
          onValueChange={(value) => change('id', value)}
          required
          maxLength={64}
          // the form opens on "Add Game": typing starts here
          autoFocus
          autoComplete="off"
          spellCheck={false}
          hint={
            <>
              Letters, digits, _ and -: the game&apos;s address (/games?play=id). It cannot change
              later.
            </>
          }
        />
      ) : null}
      <FormField
        id={`${prefix}-title`}
        label="Title"
        value={values.title}
        onValueChange={(value) => change('title', value)}
        required
        maxLength={80}
        aria-describedby={errorId}
      />
      {textArea('description', 'Description', 500)}
      {textArea('instructions', 'Instructions', 2000)}
      <FormRow>
        <SelectField
          id={`${prefix}-section`}
          label="Section"
          value={values.section}
          options={GAME_SECTIONS}
          labels={SECTION_LABELS}
          onValueChange={(section) => change('section', section)}
        />
        <SelectField
          id={`${prefix}-access`}
          label="Access"
          value={values.access}
          options={ACCESS_CHOICES}
          labels={ACCESS_LABELS}
          onValueChange={(access) => change('access', access)}
        />
        <FormField
          id={`${prefix}-order`}
          label="Order"
          type="number"
          inputMode="numeric"
          min={0}
          max={10000}
          step={1}
          value={values.order}
          onValueChange={(value) => change('order', value)}
          placeholder={mode === 'create' ? 'Last' : undefined}
        />
      </FormRow>
    </>
  );
}

const ACCESS_CHOICES: readonly GameAccess[] = ['public', 'subscriber'];

/** How the game is shown: its frame's size or shape, touch screens, orientation. */
function GameDisplayFields({ prefix, values, change }: FieldsProps) {
  const hintId = `${prefix}-frameMode-hint`;
  const unit = values.frameMode === 'fixed' ? 'px' : 'ratio';
  const size = (key: 'frameWidth' | 'frameHeight', label: string) => (
    <FormField
      id={`${prefix}-${key}`}
      label={`${label} (${unit})`}
      type="number"
      inputMode="numeric"
      min={1}
      max={8192}
      step={1}
      value={values[key]}
      onValueChange={(value) => change(key, value)}
      required
    />
  );
  return (
    <FormGroup legend="How it is shown">
      <FormRow>
        <SelectField
          id={`${prefix}-frameMode`}
          label="Frame"
          value={values.frameMode}
          options={GAME_FRAME_MODES}
          labels={FRAME_MODE_LABELS}
          onValueChange={(frameMode) => change('frameMode', frameMode)}
          describedBy={hintId}
        />
        {values.frameMode === 'default' ? null : (
          <>
            {size('frameWidth', 'Width')}
            {size('frameHeight', 'Height')}
          </>
        )}
      </FormRow>
      <p id={hintId} className="form__hint form__hint--note">
        A fixed size is the game&apos;s canvas in CSS pixels (e.g. 1200 × 800): the frame gets that
        size and is scaled down to fit the window. An aspect ratio (e.g. 16 × 9) keeps the frame
        that shape for a game that fills its window.
      </p>
      <FormRow>
        <SelectField
          id={`${prefix}-touch`}
          label="Touch screens"
          value={values.touch}
          options={GAME_TOUCH_SUPPORT}
          labels={TOUCH_LABELS}
          onValueChange={(touch) => change('touch', touch)}
        />
        <SelectField
          id={`${prefix}-orientation`}
          label="Orientation"
          value={values.orientation}
          options={GAME_ORIENTATIONS}
          labels={ORIENTATION_LABELS}
          onValueChange={(orientation) => change('orientation', orientation)}
        />
      </FormRow>
    </FormGroup>
  );
}
