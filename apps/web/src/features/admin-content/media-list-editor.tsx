import { MEDIA_TYPES, type MediaItem } from '@portfolio/types';
import type { ReactNode } from 'react';

import type { FieldErrors } from '../../lib/zod-issues';
import { FormField, FormGroup, fieldOf } from '../../ui/form-field';
import { moveItem } from './reorder';

/** One media item as typed; `extra` keeps fields this form does not edit (sizes, variants). */
export interface MediaRow {
  key: string;
  type: string;
  source: string;
  description: string;
  thumbnail: string;
  extra: Record<string, unknown>;
}

let nextKey = 0;
const newKey = () => `media-${(nextKey += 1)}`;

export function mediaRowOf(item: MediaItem): MediaRow {
  const { type, source, description, thumbnail, ...extra } = item;
  return {
    key: newKey(),
    type,
    source,
    description: description ?? '',
    thumbnail: thumbnail ?? '',
    extra,
  };
}

export const emptyMediaRow = (): MediaRow => mediaRowOf({ type: 'image', source: '' });

/** A row nothing was typed into (an "Add item" left empty). */
const isBlankRow = (row: MediaRow) =>
  !row.source.trim() && !row.description.trim() && !row.thumbnail.trim();

/**
 * The card image a project gets when none is chosen: the first image item's thumbnail (its
 * source when it has none); empty without an image item.
 */
export function defaultThumbnailOf(rows: readonly MediaRow[]): string {
  const image = rows.find((row) => row.type === 'image' && row.source.trim() !== '');
  return image ? image.thumbnail.trim() || image.source.trim() : '';
}

/** The images of the list that may be the card's, each with its item's number. */
export function thumbnailChoicesOf(rows: readonly MediaRow[]): { item: number; url: string }[] {
  return rows.flatMap((row, index) =>
    row.type === 'image' && row.source.trim()
      ? [{ item: index + 1, url: row.thumbnail.trim() || row.source.trim() }]
      : [],
  );
}

/** A row as the request's item: empty optional fields left out. */
export function mediaItemOf(row: MediaRow): Record<string, unknown> {
  return {
    ...row.extra,
    type: row.type,
    source: row.source.trim(),
    ...(row.description.trim() ? { description: row.description.trim() } : {}),
    ...(row.thumbnail.trim() ? { thumbnail: row.thumbnail.trim() } : {}),
  };
}

interface MediaListEditorProps {
  formId: string;
  rows: readonly MediaRow[];
  /** Told how the list changes (from the list as it is then: an upload ends later). */
  onChange: (update: (rows: MediaRow[]) => MediaRow[]) => void;
  errors: FieldErrors;
  /**
   * Where an upload control goes, beside "Add item" (the media upload):
   * given a function that appends an item made from an uploaded file.
   */
  uploadSlot?: (addItem: (item: MediaItem) => void) => ReactNode;
}

/** The project's media list: each item's type, source, description and thumbnail, in order. */
export function MediaListEditor({
  formId,
  rows,
  onChange,
  errors,
  uploadSlot,
}: MediaListEditorProps) {
  const update = (index: number, change: Partial<MediaRow>) =>
    onChange((held) => held.map((row, at) => (at === index ? { ...row, ...change } : row)));
  // an upload takes the place of items left empty, so they never block saving
  const addItem = (item: MediaItem) =>
    onChange((held) => [...held.filter((row) => !isBlankRow(row)), mediaRowOf(item)]);

  return (
    <FormGroup legend="Media">
      {errors.media ? <p className="form__hint form__hint--bad">Media {errors.media}</p> : null}
      {rows.length === 0 ? (
        <p className="form__hint form__hint--note">
          No items yet: upload files below, or add an item by its address.
        </p>
      ) : null}
      <ol className="media-editor__list">
        {rows.map((row, index) => {
          const name = (field: string) => `media.${index}.${field}`;
          const label = `Item ${index + 1}`;
          return (
            <li key={row.key} className="media-editor__item" aria-label={label}>
              <div className="media-editor__header">
                <strong>{label}</strong>
                <div className="form__actions">
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    onClick={() => onChange((held) => moveItem(held, index, index - 1))}
                    disabled={index === 0}
                    aria-label={`Move item ${index + 1} up`}
                  >
                    Move up
                  </button>
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    onClick={() => onChange((held) => moveItem(held, index, index + 1))}
                    disabled={index === rows.length - 1}
                    aria-label={`Move item ${index + 1} down`}
                  >
                    Move down
                  </button>
                  <button
                    type="button"
                    className="button button--ghost button--small"
                    onClick={() => onChange((held) => held.filter((_, at) => at !== index))}
                    aria-label={`Remove item ${index + 1}`}
                  >
                    Remove
                  </button>
                </div>
              </div>
              <FormField {...fieldOf(formId, errors, name('type'))} label="Type">
                {(props) => (
                  <select
                    {...props}
                    value={row.type}
                    onChange={(event) => update(index, { type: event.target.value })}
                  >
                    {MEDIA_TYPES.map((type) => (
                      <option key={type} value={type}>
                        {type}
                      </option>
                    ))}
                  </select>
                )}
              </FormField>
              <FormField
                {...fieldOf(formId, errors, name('source'))}
                label="Source"
                hint="A path on this site (/assets/…) or an http(s) address; a YouTube or Vimeo link plays in a frame."
              >
                {(props) => (
                  <input
                    {...props}
                    value={row.source}
                    onChange={(event) => update(index, { source: event.target.value })}
                    autoComplete="off"
                    spellCheck={false}
                  />
                )}
              </FormField>
              <FormField
                {...fieldOf(formId, errors, name('description'))}
                label="Description (optional)"
              >
                {(props) => (
                  <input
                    {...props}
                    value={row.description}
                    onChange={(event) => update(index, { description: event.target.value })}
                  />
                )}
              </FormField>
              <FormField
                {...fieldOf(formId, errors, name('thumbnail'))}
                label="Thumbnail (optional)"
              >
                {(props) => (
                  <input
                    {...props}
                    value={row.thumbnail}
                    onChange={(event) => update(index, { thumbnail: event.target.value })}
                    autoComplete="off"
                    spellCheck={false}
                  />
                )}
              </FormField>
            </li>
          );
        })}
      </ol>
      <div className="form__actions">
        <button
          type="button"
          className="button button--secondary"
          onClick={() => onChange((held) => [...held, emptyMediaRow()])}
        >
          Add item
        </button>
      </div>
      {uploadSlot?.(addItem)}
    </FormGroup>
  );
}
