import type { InputHTMLAttributes, ReactNode } from 'react';

import type { FieldErrors } from '../lib/zod-issues';

/** What FormField gives its control: its id and what describes it. */
export interface ControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby': string | undefined;
}

interface FrameProps {
  id: string;
  label: string;
  /** A line under the control that describes it. */
  hint?: ReactNode;
  /** This field's own error ('is required'), shown under it after the label. */
  error?: string;
  /** A checkbox: the box beside its label, the label after it. */
  isInline?: boolean;
  /** A class beside form__field, for the field's place in its layout. */
  fieldClassName?: string;
}

interface RenderProps extends FrameProps {
  /** The control (a select, a textarea, a checkbox), given its id and what describes it. */
  children: (control: ControlProps) => ReactNode;
}

interface InputProps
  extends FrameProps, Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'id'> {
  value: string;
  onValueChange: (value: string) => void;
  /** Shown under the input, e.g. a live hint the input is described by. */
  children?: ReactNode;
}

const isRender = (props: RenderProps | InputProps): props is RenderProps =>
  typeof props.children === 'function';

/**
 * The one labelled field of every form: the label, the control, its hint and its own error
 * message right under it. Give it `value` and `onValueChange` for a text input (other props go
 * to the input, children follow it), or a function that draws any other control.
 */
export function FormField(props: RenderProps | InputProps) {
  const { id, label, hint, error, isInline = false, fieldClassName } = props;
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy =
    [hintId, errorId].filter(Boolean).join(' ') ||
    (isRender(props) ? undefined : props['aria-describedby']);
  const control = { id, 'aria-invalid': error !== undefined, 'aria-describedby': describedBy };
  const labelElement = <label htmlFor={id}>{label}</label>;
  return (
    <div
      className={['form__field', isInline ? 'form__field--inline' : '', fieldClassName ?? '']
        .filter(Boolean)
        .join(' ')}
    >
      {isInline ? null : labelElement}
      {isRender(props) ? props.children(control) : <TextInput {...props} {...control} />}
      {isInline ? labelElement : null}
      {isRender(props) ? null : props.children}
      {hint ? (
        <p id={hintId} className="form__hint form__hint--note">
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

function TextInput({
  label: _label,
  hint: _hint,
  error: _error,
  isInline: _isInline,
  fieldClassName: _fieldClassName,
  onValueChange,
  children: _children,
  'aria-invalid': ariaInvalid,
  ...inputProps
}: InputProps & ControlProps) {
  return (
    <input
      {...inputProps}
      aria-invalid={ariaInvalid || undefined}
      onChange={(event) => onValueChange(event.target.value)}
    />
  );
}

interface SelectFieldProps<T extends string> extends FrameProps {
  value: T;
  /** The choices in their order, and the words each is shown with. */
  options: readonly T[];
  labels: Readonly<Record<T, string>>;
  onValueChange: (value: T) => void;
  /** Something else on the page that describes the choice (a note under a row of fields). */
  describedBy?: string;
}

/** A FormField holding a select of fixed choices; only a listed choice reaches onValueChange. */
export function SelectField<T extends string>({
  value,
  options,
  labels,
  onValueChange,
  describedBy,
  ...frame
}: SelectFieldProps<T>) {
  return (
    <FormField {...frame}>
      {(control) => (
        <select
          {...control}
          aria-describedby={control['aria-describedby'] ?? describedBy}
          value={value}
          onChange={(event) => {
            const chosen = options.find((option) => option === event.target.value);
            if (chosen !== undefined) {
              onValueChange(chosen);
            }
          }}
        >
          {options.map((option) => (
            <option key={option} value={option}>
              {labels[option]}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

/**
 * Fields side by side (each at least 12rem wide, one under the other on a phone): labels and
 * controls line up at the top, whatever hint one of them has under it.
 */
export function FormRow({ children }: { children: ReactNode }) {
  return <div className="form__row">{children}</div>;
}

interface FormGroupProps {
  legend: ReactNode;
  /** A class beside form__group, for the group's place in its layout. */
  className?: string;
  children: ReactNode;
}

/** A fieldset of related fields under its legend, framed as every form's groups are. */
export function FormGroup({ legend, className, children }: FormGroupProps) {
  return (
    <fieldset className={className ? `form__group ${className}` : 'form__group'}>
      <legend>{legend}</legend>
      {children}
    </fieldset>
  );
}

/** A field's id and error in a form whose errors are kept by the field's path ('media.0.source'). */
export const fieldOf = (formId: string, errors: FieldErrors, name: string) => ({
  id: `${formId}-${name.replace(/\./g, '-')}`,
  error: errors[name],
});

interface ConfirmPasswordFieldProps {
  id: string;
  label?: string;
  /** The password being confirmed. */
  password: string;
  value: string;
  onValueChange: (value: string) => void;
}

/**
 * The field that repeats a new password, with its live hint ('Passwords match' / 'Passwords do
 * not match') once something is typed.
 */
export function ConfirmPasswordField({
  id,
  label = 'Confirm Password',
  password,
  value,
  onValueChange,
}: ConfirmPasswordFieldProps) {
  const hintId = `${id}-match`;
  const doMatch = password === value;
  return (
    <FormField
      id={id}
      label={label}
      value={value}
      onValueChange={onValueChange}
      name="confirmPassword"
      type="password"
      autoComplete="new-password"
      required
      aria-describedby={hintId}
    >
      <p
        id={hintId}
        className={`form__hint ${doMatch ? 'form__hint--ok' : 'form__hint--bad'}`}
        aria-live="polite"
      >
        {value === '' ? null : doMatch ? 'Passwords match' : 'Passwords do not match'}
      </p>
    </FormField>
  );
}
