import type { InputHTMLAttributes, ReactNode } from 'react';

interface FormFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** Shown under the input, e.g. a live hint the input is described by. */
  children?: ReactNode;
}

/** A labelled input in the form layout; extra props go to the input, children follow it. */
export function FormField({
  id,
  label,
  value,
  onValueChange,
  children,
  ...inputProps
}: FormFieldProps) {
  return (
    <div className="form__field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        {...inputProps}
      />
      {children}
    </div>
  );
}

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
