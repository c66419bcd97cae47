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
