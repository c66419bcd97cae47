import type { GalleryProject, MediaItem } from '@portfolio/types';
import { type AdminGalleryProject, CreateGalleryProjectRequest } from '@portfolio/types/content';
import { type FormEvent, type ReactNode, useId, useState } from 'react';

import { type FieldErrors, fieldErrorsOf } from '../../lib/zod-issues';
import { FormField, fieldOf } from '../../ui/form-field';
import {
  emptyMediaRow,
  MediaListEditor,
  mediaItemOf,
  mediaRowOf,
  type MediaRow,
} from './media-list-editor';
import { GalleryPreview } from './previews';

export interface GalleryFormValues {
  id: string;
  title: string;
  description: string;
  thumbnail: string;
  repositoryLink: string;
  media: MediaRow[];
}

export const emptyGalleryValues = (): GalleryFormValues => ({
  id: '',
  title: '',
  description: '',
  thumbnail: '',
  repositoryLink: '',
  media: [emptyMediaRow()],
});

export function galleryValuesOf(project: AdminGalleryProject): GalleryFormValues {
  return {
    id: project.id,
    title: project.title,
    description: project.description,
    thumbnail: project.thumbnail,
    repositoryLink: project.repositoryLink ?? '',
    media: project.media.map(mediaRowOf),
  };
}

type Checked = { ok: true; body: CreateGalleryProjectRequest } | { ok: false; errors: FieldErrors };

/** The request these values make, or each field's error (the server's own rules). */
export function checkGalleryValues(values: GalleryFormValues, isNew: boolean): Checked {
  const result = CreateGalleryProjectRequest.safeParse({
    ...(isNew && values.id.trim() ? { id: values.id.trim() } : {}),
    title: values.title,
    description: values.description,
    thumbnail: values.thumbnail.trim(),
    repositoryLink: values.repositoryLink.trim(),
    media: values.media.map(mediaItemOf),
  });
  return result.success
    ? { ok: true, body: result.data }
    : { ok: false, errors: fieldErrorsOf(result.error.issues) };
}

/** The project as the public gallery would show it (for the preview). */
function previewOf(values: GalleryFormValues): GalleryProject {
  const media = values.media
    .map(mediaItemOf)
    .filter((item): item is MediaItem => typeof item.source === 'string' && item.source !== '');
  return {
    id: values.id.trim() || 'preview',
    title: values.title || 'Untitled',
    description: values.description,
    thumbnail: values.thumbnail || '/assets/default_video_thumbnail.jpg',
    ...(values.repositoryLink.trim() ? { repositoryLink: values.repositoryLink.trim() } : {}),
    media,
  };
}

interface GalleryFormProps {
  initial: GalleryFormValues;
  isNew: boolean;
  submitLabel: string;
  /** Sends the checked request; a rejection's message is shown and the values stay. */
  onSubmit: (body: CreateGalleryProjectRequest) => Promise<void>;
  onCancel: () => void;
  /** Where the media upload goes (see MediaListEditor). */
  uploadSlot?: (addItem: (item: MediaItem) => void) => ReactNode;
}

/** A gallery project's fields and media list, with a preview as the public page shows it. */
export function GalleryForm({
  initial,
  isNew,
  submitLabel,
  onSubmit,
  onCancel,
  uploadSlot,
}: GalleryFormProps) {
  const formId = useId();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [isPreviewing, setPreviewing] = useState(false);

  const change = (patch: Partial<GalleryFormValues>) =>
    setValues((held) => ({ ...held, ...patch }));

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setServerError(null);
    const checked = checkGalleryValues(values, isNew);
    if (!checked.ok) {
      setErrors(checked.errors);
      // the first field in error takes the focus, so its message is read
      const first = Object.keys(checked.errors)[0];
      if (first) {
        document.getElementById(`${formId}-${first.replace(/\./g, '-')}`)?.focus();
      }
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await onSubmit(checked.body);
    } catch (failure) {
      setServerError(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };

  const text = (
    name: 'id' | 'title' | 'description' | 'thumbnail' | 'repositoryLink',
    label: string,
    hint?: string,
  ) => (
    <FormField {...fieldOf(formId, errors, name)} label={label} {...(hint ? { hint } : {})}>
      {(props) =>
        name === 'description' ? (
          <textarea
            {...props}
            rows={3}
            value={values[name]}
            onChange={(event) => change({ [name]: event.target.value })}
          />
        ) : (
          <input
            {...props}
            value={values[name]}
            onChange={(event) => change({ [name]: event.target.value })}
            autoComplete="off"
            spellCheck={name === 'title'}
          />
        )
      }
    </FormField>
  );

  return (
    <form
      className="form content-form"
      onSubmit={(event) => void handleSubmit(event)}
      noValidate
      aria-label={isNew ? 'Add a project' : `Edit ${initial.title}`}
    >
      {isNew
        ? text('id', 'Id (optional)', 'Letters, digits, _ and -; made from the title when empty.')
        : null}
      {text('title', 'Title')}
      {text('description', 'Description')}
      {text(
        'thumbnail',
        'Card thumbnail',
        'A path on this site (/assets/…) or an http(s) address.',
      )}
      {text('repositoryLink', 'Repository link (optional)', 'An http(s) address.')}
      <MediaListEditor
        formId={formId}
        rows={values.media}
        onChange={(media) => change({ media })}
        errors={errors}
        {...(uploadSlot ? { uploadSlot } : {})}
      />
      {serverError ? (
        <p className="alert alert--error" role="alert">
          {serverError}
        </p>
      ) : null}
      <div className="form__actions">
        <button type="submit" className="button button--primary" disabled={isBusy}>
          {isBusy ? 'Saving...' : submitLabel}
        </button>
        <button
          type="button"
          className="button button--secondary"
          onClick={() => setPreviewing((shown) => !shown)}
          aria-expanded={isPreviewing}
        >
          {isPreviewing ? 'Hide preview' : 'Preview'}
        </button>
        <button type="button" className="button button--ghost" onClick={onCancel}>
          Cancel
        </button>
      </div>
      {isPreviewing ? <GalleryPreview project={previewOf(values)} /> : null}
    </form>
  );
}
