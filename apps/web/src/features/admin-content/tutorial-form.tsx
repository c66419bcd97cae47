import type { Tutorial } from '@portfolio/types';
import { type AdminTutorial, CreateTutorialRequest } from '@portfolio/types/content';

import { fieldErrorsOf } from '../../lib/zod-issues';
import { FormField, fieldOf } from '../../ui/form-field';
import { type Checked, type ItemFields, ItemForm } from './content-form';
import { TutorialPreview } from './previews';

export interface TutorialFormValues {
  id: string;
  title: string;
  section: 'cpp' | 'unreal';
  type: 'code' | 'markdown' | 'iframe';
  content: string;
  iframeSrc: string;
}

export const emptyTutorialValues = (): TutorialFormValues => ({
  id: '',
  title: '',
  section: 'cpp',
  type: 'markdown',
  content: '',
  iframeSrc: '',
});

export function tutorialValuesOf(tutorial: AdminTutorial): TutorialFormValues {
  return {
    id: tutorial.id,
    title: tutorial.title,
    section: tutorial.section,
    type: tutorial.type,
    content: tutorial.content,
    iframeSrc: tutorial.iframeSrc ?? '',
  };
}

/** The request these values make, or each field's error (the server's own rules). */
export function checkTutorialValues(
  values: TutorialFormValues,
  isNew: boolean,
): Checked<CreateTutorialRequest> {
  const result = CreateTutorialRequest.safeParse({
    ...(isNew && values.id.trim() ? { id: values.id.trim() } : {}),
    title: values.title,
    section: values.section,
    type: values.type,
    content: values.content,
    iframeSrc: values.type === 'iframe' ? values.iframeSrc.trim() : null,
  });
  return result.success
    ? { ok: true, body: result.data }
    : { ok: false, errors: fieldErrorsOf(result.error.issues) };
}

function previewOf(values: TutorialFormValues): Tutorial {
  const base = { id: values.id.trim() || 'preview', title: values.title || 'Untitled' };
  if (values.type === 'iframe') {
    return {
      ...base,
      section: values.section,
      type: 'iframe',
      content: values.content,
      iframeSrc: values.iframeSrc.trim(),
    };
  }
  return { ...base, section: values.section, type: values.type, content: values.content };
}

const TYPE_HINTS: Record<TutorialFormValues['type'], string> = {
  code: 'C++ source in the C++ section (the code box with Run); markdown in the Unreal section.',
  markdown:
    'Markdown with tables, task lists, strikethrough, footnotes and autolinks. HTML is shown as text.',
  iframe: 'An https: page shown in a frame; the content is a line of text above it.',
};

interface TutorialFormProps {
  initial: TutorialFormValues;
  isNew: boolean;
  submitLabel: string;
  onSubmit: (body: CreateTutorialRequest) => Promise<void>;
  onCancel: () => void;
}

/** A tutorial's fields, with a preview as /Tutorials shows it. */
export function TutorialForm({
  initial,
  isNew,
  submitLabel,
  onSubmit,
  onCancel,
}: TutorialFormProps) {
  return (
    <ItemForm
      label={isNew ? 'Add a tutorial' : `Edit ${initial.title}`}
      initial={initial}
      check={(values) => checkTutorialValues(values, isNew)}
      submitLabel={submitLabel}
      onSubmit={onSubmit}
      onCancel={onCancel}
      preview={(values) => <TutorialPreview tutorial={previewOf(values)} />}
    >
      {(fields) => <TutorialFields {...fields} isNew={isNew} />}
    </ItemForm>
  );
}

function TutorialFields({
  formId,
  values,
  errors,
  change,
  isNew,
}: ItemFields<TutorialFormValues> & { isNew: boolean }) {
  return (
    <>
      {isNew ? (
        <FormField
          {...fieldOf(formId, errors, 'id')}
          label="Id (optional)"
          hint="Letters, digits, _ and -; made from the title when empty."
        >
          {(props) => (
            <input
              {...props}
              value={values.id}
              onChange={(event) => change({ id: event.target.value })}
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </FormField>
      ) : null}
      <FormField {...fieldOf(formId, errors, 'title')} label="Title">
        {(props) => (
          <input
            {...props}
            value={values.title}
            onChange={(event) => change({ title: event.target.value })}
          />
        )}
      </FormField>
      <FormField {...fieldOf(formId, errors, 'section')} label="Section">
        {(props) => (
          <select
            {...props}
            value={values.section}
            onChange={(event) =>
              change({ section: event.target.value === 'unreal' ? 'unreal' : 'cpp' })
            }
          >
            <option value="cpp">C++ Tutorials</option>
            <option value="unreal">Unreal Engine Tutorials</option>
          </select>
        )}
      </FormField>
      <FormField {...fieldOf(formId, errors, 'type')} label="Type" hint={TYPE_HINTS[values.type]}>
        {(props) => (
          <select
            {...props}
            value={values.type}
            onChange={(event) => {
              const type = event.target.value;
              change({ type: type === 'code' || type === 'iframe' ? type : 'markdown' });
            }}
          >
            <option value="markdown">Markdown</option>
            <option value="code">Code</option>
            <option value="iframe">Embedded page (iframe)</option>
          </select>
        )}
      </FormField>
      {values.type === 'iframe' ? (
        <FormField
          {...fieldOf(formId, errors, 'iframeSrc')}
          label="Frame address"
          hint="https: only."
        >
          {(props) => (
            <input
              {...props}
              value={values.iframeSrc}
              onChange={(event) => change({ iframeSrc: event.target.value })}
              autoComplete="off"
              spellCheck={false}
            />
          )}
        </FormField>
      ) : null}
      <FormField {...fieldOf(formId, errors, 'content')} label="Content">
        {(props) => (
          <textarea
            {...props}
            className="content-form__code"
            rows={values.type === 'iframe' ? 2 : 14}
            value={values.content}
            onChange={(event) => change({ content: event.target.value })}
            spellCheck={values.type !== 'code'}
          />
        )}
      </FormField>
    </>
  );
}
