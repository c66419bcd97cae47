import type { AdminGame } from '@portfolio/types/game-host';
import { useEffect, useId, useMemo, useState } from 'react';

import { serverMessageOr } from '../../lib/server-message';
import { uploadThumbnail } from './admin-games-api';
import { formatBytes } from './game-labels';

export const THUMBNAIL_ERROR = 'Failed to upload the thumbnail';
export const NOT_AN_IMAGE = 'Choose a PNG, JPEG or WebP image.';
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

interface ThumbnailUploadProps {
  game: AdminGame;
  onUploaded: () => Promise<void>;
}

/** The game's card image: the current one, a preview of the chosen file, and its upload. */
export function ThumbnailUpload({ game, onUploaded }: ThumbnailUploadProps) {
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [isBusy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);

  // the preview's object URL lives as long as it is shown
  const preview = useMemo(
    () => (file && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null),
    [file],
  );
  useEffect(
    () => () => {
      if (preview) {
        URL.revokeObjectURL(preview);
      }
    },
    [preview],
  );

  const handleUpload = async () => {
    if (!file) {
      return;
    }
    setBusy(true);
    setError(null);
    setStatus(null);
    try {
      await uploadThumbnail(game.id, file);
      await onUploaded();
      setFile(null);
      setStatus('Thumbnail uploaded');
    } catch (failure) {
      console.warn(THUMBNAIL_ERROR, failure);
      setError(serverMessageOr(failure, THUMBNAIL_ERROR));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="thumbnail-upload">
      <figure className="thumbnail-upload__figure">
        {file && preview ? (
          <img src={preview} alt="Preview of the new thumbnail" width={240} height={135} />
        ) : game.thumbnail ? (
          <img src={game.thumbnail} alt={`Thumbnail of ${game.title}`} width={240} height={135} />
        ) : (
          <div className="thumbnail-upload__empty">No thumbnail</div>
        )}
        <figcaption className="admin-muted">
          {file ? `Preview: ${file.name} (${formatBytes(file.size)})` : 'Current'}
        </figcaption>
      </figure>
      <div className="form thumbnail-upload__controls">
        <div className="form__field">
          <label htmlFor={inputId}>Thumbnail image</label>
          <input
            id={inputId}
            type="file"
            accept={IMAGE_TYPES.join(',')}
            onChange={(event) => {
              const chosen = event.target.files?.[0];
              setStatus(null);
              if (!chosen) {
                return;
              }
              if (!IMAGE_TYPES.includes(chosen.type)) {
                setError(NOT_AN_IMAGE);
                setFile(null);
                return;
              }
              setError(null);
              setFile(chosen);
            }}
          />
        </div>
        <div role="alert">{error ? <p className="alert alert--error">{error}</p> : null}</div>
        <p role="status" className="form__hint form__hint--ok">
          {status}
        </p>
        <div className="form__actions">
          <button
            type="button"
            className="button button--primary"
            onClick={() => void handleUpload()}
            disabled={!file || isBusy}
          >
            {isBusy ? 'Uploading...' : 'Upload Thumbnail'}
          </button>
        </div>
      </div>
    </div>
  );
}
