import { formatBytes } from '@portfolio/types/format';
import { MEDIA_ACCEPT_ATTRIBUTE, type StoredMedia } from '@portfolio/types/media';
import { useEffect, useId, useRef, useState } from 'react';

import { serverMessageOr } from '../../lib/server-message';
import { DropZone } from '../../ui/drop-zone';
import { uploadMedia } from './media-api';

import './admin-media.css';

export const MEDIA_UPLOAD_ERROR = 'The upload failed';

type Phase =
  | { kind: 'idle' }
  | { kind: 'uploading'; name: string; sent: number; total: number }
  | { kind: 'done'; name: string; isExisting: boolean }
  | { kind: 'failed'; message: string };

function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

export interface MediaUploadProps {
  /**
   * Called with the stored item once the server has it (a file uploaded before answers its
   * earlier item). Put `item.url` in a gallery item's `source`, `item.thumbnail` in its thumbnail.
   */
  onUploaded: (item: StoredMedia) => void;
  /** The drop zone's visible label (default: 'Upload media'). */
  label?: string;
  /** The file input's accessible name (default: 'Media file'), when a page has two uploads. */
  inputLabel?: string;
}

/**
 * One media upload: a drop zone (drag and drop, or the file button) that sends the file as soon
 * as it is chosen, a progress bar while it goes out, and the server's reason when it refuses
 * (an SVG, a file over the limit, a damaged image). Usable anywhere in the admin area:
 *
 *   <MediaUpload onUploaded={(item) => addItem(galleryItemOf(item))} />
 *
 * (`galleryItemOf` from '@portfolio/types/media' makes the gallery item: source, size, widths.)
 */
export function MediaUpload({
  onUploaded,
  label = 'Upload media',
  inputLabel = 'Media file',
}: MediaUploadProps) {
  const prefix = useId();
  const abortRef = useRef<AbortController | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const isUploading = phase.kind === 'uploading';

  // leaving the page stops an upload on its way
  useEffect(() => () => abortRef.current?.abort(), []);

  const upload = async (file: File | undefined) => {
    if (!file || abortRef.current) {
      return;
    }
    const controller = new AbortController();
    abortRef.current = controller;
    setPhase({ kind: 'uploading', name: file.name, sent: 0, total: file.size });
    try {
      const response = await uploadMedia(file, {
        signal: controller.signal,
        onProgress: (sent, total) => setPhase({ kind: 'uploading', name: file.name, sent, total }),
      });
      setPhase({ kind: 'done', name: file.name, isExisting: response.existing });
      onUploaded(response.media);
    } catch (error) {
      if (controller.signal.aborted && isAbort(error)) {
        setPhase({ kind: 'idle' });
        return;
      }
      const fallback = error instanceof Error && error.message ? error.message : MEDIA_UPLOAD_ERROR;
      setPhase({ kind: 'failed', message: serverMessageOr(error, fallback) });
    } finally {
      abortRef.current = null;
    }
  };

  const percent =
    phase.kind === 'uploading' && phase.total > 0
      ? Math.min(100, Math.round((phase.sent / phase.total) * 100))
      : 0;

  return (
    <div className="media-upload">
      <DropZone
        onFile={(file) => void upload(file)}
        title={<strong>{label}</strong>}
        hint="Drop an image (JPEG, PNG, WebP, AVIF, GIF), a video (MP4, WebM) or audio (MP3, OGG, WAV) here, or"
        buttonLabel="Choose a file"
        inputLabel={inputLabel}
        accept={MEDIA_ACCEPT_ATTRIBUTE}
        disabled={isUploading}
        testId="media-drop-zone"
      />
      {phase.kind === 'uploading' ? (
        <div className="media-upload__progress">
          <label htmlFor={`${prefix}-progress`}>
            {percent < 100
              ? `Uploading ${phase.name}: ${percent}% of ${formatBytes(phase.total)}`
              : `Uploaded ${phase.name}; the server is processing it...`}
          </label>
          <progress id={`${prefix}-progress`} max={100} value={percent}>
            {percent}%
          </progress>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => abortRef.current?.abort()}
          >
            Cancel Upload
          </button>
        </div>
      ) : null}
      <div role="status" className="media-upload__status">
        {phase.kind === 'done'
          ? `${phase.name} ${phase.isExisting ? 'was already uploaded' : 'uploaded'}.`
          : null}
      </div>
      <div role="alert" className="media-upload__alert">
        {phase.kind === 'failed' ? <p className="alert alert--error">{phase.message}</p> : null}
      </div>
    </div>
  );
}
