import type { ReactNode } from 'react';

import { type MediaRow, thumbnailChoicesOf } from './media-list-editor';

interface ThumbnailPickerProps {
  formId: string;
  rows: readonly MediaRow[];
  /** The card's image as it will be saved (the one typed, else the default). */
  chosen: string;
  onChoose: (url: string) => void;
  /** An upload of a picture for the card alone, given what sets it. */
  uploadSlot?: ((setThumbnail: (url: string) => void) => ReactNode) | undefined;
}

/**
 * The card thumbnail beside its field: the image the card will show, the project's images to
 * pick from (the chosen one pressed) and an upload of another picture.
 */
export function ThumbnailPicker({
  formId,
  rows,
  chosen,
  onChoose,
  uploadSlot,
}: ThumbnailPickerProps) {
  const titleId = `${formId}-thumbnail-choices`;
  const choices = thumbnailChoicesOf(rows);
  return (
    <div className="thumbnail-picker">
      {chosen ? (
        <figure className="thumbnail-picker__current">
          <img src={chosen} alt="The card thumbnail" />
          <figcaption className="form__hint form__hint--note">
            The card shows this image.
          </figcaption>
        </figure>
      ) : null}
      {choices.length > 0 ? (
        <div role="group" aria-labelledby={titleId}>
          <p id={titleId} className="thumbnail-picker__title">
            Pick one of the project’s images
          </p>
          <ul className="thumbnail-picker__choices">
            {choices.map((choice) => (
              <li key={`${choice.item}-${choice.url}`}>
                <button
                  type="button"
                  className="thumbnail-picker__choice"
                  aria-pressed={choice.url === chosen}
                  aria-label={`Use item ${choice.item} as the card thumbnail`}
                  onClick={() => onChoose(choice.url)}
                >
                  <img src={choice.url} alt="" loading="lazy" />
                  <span>Item {choice.item}</span>
                </button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {uploadSlot?.(onChoose)}
    </div>
  );
}
