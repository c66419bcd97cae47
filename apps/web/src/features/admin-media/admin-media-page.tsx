import { formatBytes } from '@portfolio/types/format';
import { describeMediaUses, type MediaUse, type StoredMedia } from '@portfolio/types/media';
import { useMemo, useState } from 'react';

import { serverMessageOr } from '../../lib/server-message';
import { AdminSection } from '../../ui/admin-section';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useResource } from '../../ui/use-resource';
import { AdminNav } from '../../ui/admin-nav';
import { deleteMedia, getMediaUsage, listMedia } from './media-api';
import { MediaUpload } from './media-upload';

import './admin-media.css';

export const LIST_ERROR = 'Failed to load the media';
export const DELETE_ERROR = 'Failed to delete the media';

/**
 * The delete confirmation's question: where the file is shown when something shows it (the
 * server refuses to delete it then), while `uses` is unknown (loading, or it failed) the question
 * alone.
 */
export function deleteQuestion(name: string, uses: readonly MediaUse[] | undefined): string {
  if (uses === undefined) {
    return `Delete ${name}? This action cannot be undone.`;
  }
  if (uses.length === 0) {
    return `Delete ${name}? No project or post shows it. This action cannot be undone.`;
  }
  return `${name} is used by ${describeMediaUses(uses)}. Remove it there first: the site keeps files that a project or post shows.`;
}
const TYPE_LABELS: Record<StoredMedia['type'], string> = {
  image: 'Image',
  video: 'Video',
  audio: 'Audio',
};

/** Seconds as m:ss (or h:mm:ss). */
export function formatDuration(seconds: number): string {
  const whole = Math.round(seconds);
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const rest = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${rest}` : `${minutes}:${rest}`;
}

/** Width × height and duration, as far as they are known. */
export function describeMedia(item: StoredMedia): string {
  const parts: string[] = [];
  if (item.width !== undefined && item.height !== undefined) {
    parts.push(`${item.width} × ${item.height}`);
  }
  if (item.duration !== undefined) {
    parts.push(formatDuration(item.duration));
  }
  return parts.join(', ') || '—';
}

function Preview({ item }: { item: StoredMedia }) {
  if (item.type === 'image') {
    return <img src={item.thumbnail} alt={item.originalName || 'Uploaded image'} loading="lazy" />;
  }
  if (item.type === 'video') {
    return (
      <video src={item.url} controls preload="metadata" aria-label={item.originalName || 'Video'}>
        Your browser does not support the video tag.
      </video>
    );
  }
  return (
    <audio src={item.url} controls preload="none" aria-label={item.originalName || 'Audio'}>
      Your browser does not support the audio element.
    </audio>
  );
}

function MediaCard({
  item,
  onDelete,
}: {
  item: StoredMedia;
  onDelete: (item: StoredMedia) => void;
}) {
  const [copied, setCopied] = useState('');
  const name = item.originalName || item.url;
  const handleCopy = () => {
    const address = new URL(item.url, window.location.origin).pathname;
    // navigator.clipboard exists only in secure contexts (https, localhost)
    if (!(window.isSecureContext && 'clipboard' in navigator)) {
      setCopied(`Copy this URL: ${address}`);
      return;
    }
    navigator.clipboard.writeText(address).then(
      () => setCopied('URL copied'),
      () => setCopied(`Copy this URL: ${address}`),
    );
  };
  return (
    <li className="media-card" aria-label={name}>
      <div className="media-card__preview">
        <Preview item={item} />
      </div>
      <h3>{name}</h3>
      <dl>
        <dt>Type</dt>
        <dd>
          {TYPE_LABELS[item.type]} ({item.mime})
        </dd>
        <dt>Size</dt>
        <dd>{formatBytes(item.bytes)}</dd>
        <dt>{item.type === 'image' ? 'Dimensions' : 'Length'}</dt>
        <dd>{describeMedia(item)}</dd>
        <dt>URL</dt>
        <dd>
          <code>{item.url}</code>
        </dd>
      </dl>
      <div className="media-card__actions">
        <button type="button" className="button button--secondary" onClick={handleCopy}>
          Copy URL
        </button>
        <button
          type="button"
          className="button button--danger"
          onClick={() => onDelete(item)}
          aria-label={`Delete ${name}`}
        >
          Delete
        </button>
      </div>
      <p role="status" className="admin-muted">
        {copied}
      </p>
    </li>
  );
}

/** /admin/media: upload media and see, copy and delete what was uploaded. */
export function AdminMediaPage() {
  const list = useResource(listMedia, LIST_ERROR);
  const media = list.data ?? null;
  const { setData: setMedia } = list;
  const [deleteError, setDeleteError] = useState('');
  const error = deleteError || list.error || '';
  const [toDelete, setToDelete] = useState<StoredMedia | null>(null);
  const [isDeleting, setDeleting] = useState(false);
  const toDeleteId = toDelete?.id;
  /** Where the file asked about is shown, once the server has said. */
  const loadUsage = useMemo(
    () =>
      toDeleteId === undefined ? null : (signal: AbortSignal) => getMediaUsage(toDeleteId, signal),
    [toDeleteId],
  );
  // unknown while loading or when it failed (its error is not shown): the question stands
  // alone, and the server still refuses a file in use
  const { data: uses } = useResource(loadUsage, DELETE_ERROR);

  const handleUploaded = (item: StoredMedia) => {
    setMedia((current) => [item, ...(current ?? []).filter((other) => other.id !== item.id)]);
  };

  const handleDelete = async () => {
    if (!toDelete) {
      return;
    }
    setDeleting(true);
    try {
      await deleteMedia(toDelete.id);
      setMedia((current) => (current ?? []).filter((other) => other.id !== toDelete.id));
      setDeleteError('');
      list.setError(null);
    } catch (failure) {
      setDeleteError(serverMessageOr(failure, DELETE_ERROR));
    } finally {
      setDeleting(false);
      setToDelete(null);
    }
  };

  return (
    <section className="page admin-media" aria-labelledby="admin-media-title">
      <header className="admin-dashboard__header">
        <h1 id="admin-media-title">Media</h1>
      </header>
      <AdminNav />
      <AdminSection titleId="media-upload-title" title="Upload">
        <MediaUpload onUploaded={handleUploaded} />
      </AdminSection>
      <AdminSection titleId="media-list-title" title="Uploaded Media">
        {error ? (
          <p className="alert alert--error" role="alert">
            {error}
          </p>
        ) : null}
        {media === null && !error ? <p className="admin-muted">Loading...</p> : null}
        {media?.length === 0 ? <p className="admin-muted">Nothing uploaded yet.</p> : null}
        {media && media.length > 0 ? (
          <ul className="media-list" aria-labelledby="media-list-title">
            {media.map((item) => (
              <MediaCard key={item.id} item={item} onDelete={setToDelete} />
            ))}
          </ul>
        ) : null}
      </AdminSection>
      <ConfirmDialog
        isOpen={toDelete !== null}
        title="Delete Media"
        message={deleteQuestion(toDelete?.originalName || 'this file', uses)}
        confirmLabel="Delete"
        isBusy={isDeleting}
        onConfirm={() => void handleDelete()}
        onCancel={() => setToDelete(null)}
      />
    </section>
  );
}
