/** A zod issue as the web app reads it (zod classic and zod/mini issues both fit). */
export interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

interface SentenceOptions {
  /** The field's label by its request name; a name without one is written as it is. */
  labels?: Readonly<Record<string, string>>;
  /** Between the label and the message: ' ' ('Title is required') or ': ' ('name: Too long'). */
  separator?: string;
  /** Messages that are whole sentences already and are shown without the field's label. */
  wholeMessages?: ReadonlySet<string>;
  /** When there is no issue to tell. */
  fallback: string;
}

/**
 * The first issue of a failed check as one sentence for the form's alert: the field's label,
 * a nested part of it ('Frame width'), then the message.
 */
export function issueSentence(issues: readonly Issue[], options: SentenceOptions): string {
  const issue = issues[0];
  if (!issue) {
    return options.fallback;
  }
  const [first, ...rest] = issue.path.map(String);
  if (first === undefined || options.wholeMessages?.has(issue.message)) {
    return issue.message;
  }
  const label = [options.labels?.[first] ?? first, ...rest].join(' ');
  return `${label}${options.separator ?? ' '}${issue.message}`.trim();
}

/** The first message per field of a failed check, by the field's path ('media.0.source'). */
export type FieldErrors = Readonly<Record<string, string>>;

/** A failed check's messages per field, for FormField's per-field errors. */
export function fieldErrorsOf(issues: readonly Issue[]): FieldErrors {
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
