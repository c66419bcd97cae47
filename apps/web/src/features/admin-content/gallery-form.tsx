import type { GalleryProject, MediaItem } from '@portfolio/types';
import { type AdminGalleryProject, CreateGalleryProjectRequest } from '@portfolio/types/content';
import type { ReactNode } from 'react';

import { fieldErrorsOf } from '../../lib/zod-issues';
import { FormField, fieldOf } from '../../ui/form-field';
import {
  defaultThumbnailOf,
  MediaListEditor,
  mediaItemOf,
  mediaRowOf,
  type MediaRow,
} from './media-list-editor';
import { ThumbnailPicker } from './thumbnail-picker';
import { type Checked, type ItemFields, ItemForm } from './content-form';
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
  // no empty first item: uploads become the items, and an empty one would block saving
  media: [],
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

/** The request these values make, or each field's error (the server's own rules). */
export function checkGalleryValues(
  values: GalleryFormValues,
  isNew: boolean,
): Checked<CreateGalleryProjectRequest> {
  const result = CreateGalleryProjectRequest.safeParse({
    ...(isNew && values.id.trim() ? { id: values.id.trim() } : {}),
    title: values.title,
    description: values.description,
    thumbnail: cardThumbnailOf(values),
    repositoryLink: values.repositoryLink.trim(),
    media: values.media.map(mediaItemOf),
  });
  return result.success
    ? { ok: true, body: result.data }
    : { ok: false, errors: fieldErrorsOf(result.error.issues) };
}

/** The card's image: the one chosen, else the first image item's thumbnail. */
const cardThumbnailOf = (values: GalleryFormValues) =>
  values.thumbnail.trim() || defaultThumbnailOf(values.media);

/** The project as the public gallery would show it (for the preview). */
function previewOf(values: GalleryFormValues): GalleryProject {
  const media = values.media
    .map(mediaItemOf)
    .filter((item): item is MediaItem => typeof item.source === 'string' && item.source !== '');
  return {
    id: values.id.trim() || 'preview',
    title: values.title || 'Untitled',
    description: values.description,
    thumbnail: cardThumbnailOf(values) || '/assets/default_video_thumbnail.jpg',
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
  /** An upload for the card thumbnail alone, given what sets it. */
  thumbnailUploadSlot?: (setThumbnail: (url: string) => void) => ReactNode;
}

/** A gallery project's fields and media list, with a preview as the public page shows it. */
export function GalleryForm({
  initial,
  isNew,
  submitLabel,
  onSubmit,
  onCancel,
  uploadSlot,
  thumbnailUploadSlot,
}: GalleryFormProps) {
  return (
    <ItemForm
      label={isNew ? 'Add a project' : `Edit ${initial.title}`}
      initial={initial}
      check={(values) => checkGalleryValues(values, isNew)}
      submitLabel={submitLabel}
      onSubmit={onSubmit}
      onCancel={onCancel}
      preview={(values) => <GalleryPreview project={previewOf(values)} />}
    >
      {(fields) => (
        <GalleryFields
          {...fields}
          isNew={isNew}
          uploadSlot={uploadSlot}
          thumbnailUploadSlot={thumbnailUploadSlot}
        />
      )}
    </ItemForm>
  );
}

function GalleryFields({
  formId,
  values,
  errors,
  change,
  isNew,
  uploadSlot,
  thumbnailUploadSlot,
}: ItemFields<GalleryFormValues> &
  Pick<GalleryFormProps, 'isNew' | 'uploadSlot' | 'thumbnailUploadSlot'>) {
  const defaultThumbnail = defaultThumbnailOf(values.media);
  const text = (
    name: 'id' | 'title' | 'description' | 'thumbnail' | 'repositoryLink',
    label: string,
    hint?: string,
    placeholder?: string,
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
            placeholder={placeholder}
          />
        )
      }
    </FormField>
  );

  return (
    <>
      {isNew
        ? text('id', 'Id (optional)', 'Letters, digits, _ and -; made from the title when empty.')
        : null}
      {text('title', 'Title')}
      {text('description', 'Description')}
      {text('repositoryLink', 'Repository link (optional)', 'An http(s) address.')}
      <MediaListEditor
        formId={formId}
        rows={values.media}
        onChange={(update) => change((held) => ({ media: update(held.media) }))}
        errors={errors}
        {...(uploadSlot ? { uploadSlot } : {})}
      />
      {text(
        'thumbnail',
        'Card thumbnail',
        'Empty: the first image item’s thumbnail. Else a path on this site (/assets/…) or an http(s) address.',
        defaultThumbnail || undefined,
      )}
      <ThumbnailPicker
        formId={formId}
        rows={values.media}
        chosen={values.thumbnail.trim() || defaultThumbnail}
        onChoose={(thumbnail) => change({ thumbnail })}
        uploadSlot={thumbnailUploadSlot}
      />
    </>
  );
}
