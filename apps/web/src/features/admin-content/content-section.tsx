import type { ContentKind } from '@portfolio/types/content';
import { type ReactNode, useState } from 'react';

import { serverMessageOr } from '../../lib/server-message';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { useResource } from '../../ui/use-resource';
import {
  type ContentSection as SectionName,
  deleteContentItem,
  reorderContent,
  setPublished,
} from './admin-content-api';
import { ContentHistory } from './content-history';
import { ContentList, type ContentListItem } from './content-list';

export interface SectionItem extends ContentListItem {
  updatedAt: string;
}

interface ContentSectionProps<T extends SectionItem> {
  section: SectionName;
  kind: ContentKind;
  /** 'project' or 'tutorial', in the section's texts. */
  noun: string;
  /** The list's name ('Gallery projects'). */
  label: string;
  /** The section's items as the admin API lists them (a stable function). */
  load: (signal?: AbortSignal) => Promise<T[]>;
  /** The add form (item null) or an item's edit form; `onSaved` after the server took it. */
  renderForm: (item: T | null, onSaved: () => Promise<void>, onCancel: () => void) => ReactNode;
}

/**
 * One tab of the Content section: the items in order (reorder, publish, delete), an add form
 * and an item's edit form with its preview and history.
 */
export function ContentSection<T extends SectionItem>({
  section,
  kind,
  noun,
  label,
  load,
  renderForm,
}: ContentSectionProps<T>) {
  const resource = useResource(load, `Failed to load the ${noun}s`);
  const items = resource.data ?? null;
  // a command's failure stays on screen through the reload after it
  const [commandError, setCommandError] = useState<string | null>(null);
  const error = commandError ?? resource.error;
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const [deleting, setDeleting] = useState<T | null>(null);
  const [isDeleteBusy, setDeleteBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);

  const run = async (action: () => Promise<void>, fallback: string, done?: string) => {
    setNotice(null);
    setCommandError(null);
    try {
      await action();
      if (done) {
        setNotice(done);
      }
    } catch (failure) {
      setCommandError(serverMessageOr(failure, fallback));
    }
    await resource.reload();
  };

  const handleReorder = (next: T[]) => {
    resource.setData(() => next);
    void run(
      () =>
        reorderContent(
          section,
          next.map((item) => item.id),
        ),
      'Failed to save the new order',
    );
  };

  const handleSaved = async () => {
    const wasNew = editing === 'new';
    setEditing(null);
    setNotice(wasNew ? `The ${noun} was added as a draft.` : 'Changes saved.');
    await resource.reload();
  };

  const handleDelete = async () => {
    if (!deleting) {
      return;
    }
    setDeleteBusy(true);
    const { id, title } = deleting;
    await run(
      () => deleteContentItem(section, id),
      `Failed to delete the ${noun}`,
      `Deleted ${title}.`,
    );
    setDeleteBusy(false);
    setDeleting(null);
    if (editing !== null && editing !== 'new' && editing.id === id) {
      setEditing(null);
    }
  };

  const editingItem = editing !== null && editing !== 'new' ? editing : null;
  return (
    <div className="content-section">
      <div className="admin-games__section-header">
        <h2 id={`content-${section}-title`}>{label}</h2>
        {editing === 'new' ? null : (
          <button
            type="button"
            className="button button--primary"
            onClick={() => {
              setNotice(null);
              setEditing('new');
            }}
          >
            Add {noun}
          </button>
        )}
      </div>
      {notice ? (
        <p className="notice notice--success" role="status">
          {notice}
        </p>
      ) : null}
      {error ? (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      ) : null}
      {editing === 'new' ? (
        <div className="admin-panel" role="region" aria-label={`Add a ${noun}`}>
          <h3>Add a {noun}</h3>
          <p className="admin-muted">
            A new {noun} starts as a draft: guests see it once you publish it.
          </p>
          {renderForm(null, handleSaved, () => setEditing(null))}
        </div>
      ) : null}
      {items === null && !error ? <p className="admin-muted loading-room">Loading...</p> : null}
      {items !== null && items.length === 0 ? (
        <p className="admin-muted">Nothing here yet: guests see an empty page.</p>
      ) : null}
      {items !== null && items.length > 0 ? (
        <ContentList
          label={label}
          items={items}
          editingId={editingItem?.id ?? null}
          onReorder={handleReorder}
          onEdit={(item) => {
            setNotice(null);
            setEditing(item);
          }}
          onTogglePublished={(item) =>
            void run(
              () => setPublished(section, item.id, !item.published),
              `Failed to change whether the ${noun} is published`,
              item.published ? `${item.title} is a draft again.` : `${item.title} is published.`,
            )
          }
          onDelete={setDeleting}
        />
      ) : null}
      {editingItem ? (
        <div className="admin-panel" role="region" aria-label={`Edit ${editingItem.title}`}>
          <h3>Edit {editingItem.title}</h3>
          {renderForm(editingItem, handleSaved, () => setEditing(null))}
          <ContentHistory kind={kind} itemId={editingItem.id} version={editingItem.updatedAt} />
        </div>
      ) : null}
      <ConfirmDialog
        isOpen={deleting !== null}
        title={`Delete ${deleting?.title ?? ''}?`}
        message={`Are you sure you want to delete this ${noun}? This action cannot be undone.`}
        confirmLabel="Delete"
        isBusy={isDeleteBusy}
        onConfirm={() => void handleDelete()}
        onCancel={() => setDeleting(null)}
      />
    </div>
  );
}
