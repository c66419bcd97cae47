/** The first message per field of a failed check, by the field's path ('media.0.source'). */
export type FieldErrors = Readonly<Record<string, string>>;

export function fieldErrorsOf(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): FieldErrors {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || 'form';
    errors[key] ??= issue.message;
  }
  return errors;
}

/** The id of a field's error message, for aria-describedby. */
export const errorIdOf = (formId: string, field: string) =>
  `${formId}-${field.replace(/\./g, '-')}-error`;
