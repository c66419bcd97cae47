import { useRef, useState, type DragEvent } from 'react';

import { describeMove, moveItem } from './reorder';

export interface ContentListItem {
  id: string;
  title: string;
  published: boolean;
  /** A second line (a tutorial's section and type). */
  detail?: string;
}

interface ContentListProps<T extends ContentListItem> {
  /** Names the list and its items' buttons ('Gallery projects'). */
  label: string;
  items: readonly T[];
  /** The whole list in its new order; the list shows it at once (a failure reloads it). */
  onReorder: (items: T[]) => void;
  onEdit: (item: T) => void;
  onTogglePublished: (item: T) => void;
  onDelete: (item: T) => void;
  /** The item whose form is open (its row says so). */
  editingId: string | null;
}

/**
 * A section's items in order, each with its status and commands. Reordering: drag a row by its
 * handle, or focus the handle and press ArrowUp/ArrowDown (Home/End), or use Move up/Move down;
 * each move is announced in a live region.
 */
export function ContentList<T extends ContentListItem>({
  label,
  items,
  onReorder,
  onEdit,
  onTogglePublished,
  onDelete,
  editingId,
}: ContentListProps<T>) {
  const [announcement, setAnnouncement] = useState('');
  const [dragging, setDragging] = useState<string | null>(null);
  const handles = useRef(new Map<string, HTMLButtonElement>());

  const move = (from: number, to: number, focus: 'handle' | 'none' = 'none') => {
    const item = items[from];
    if (!item || to < 0 || to >= items.length || to === from) {
      return;
    }
    onReorder(moveItem(items, from, to));
    setAnnouncement(describeMove(item.title, to + 1, items.length));
    if (focus === 'handle') {
      // the row moved: keep the keyboard on its handle
      requestAnimationFrame(() => handles.current.get(item.id)?.focus());
    }
  };

  const handleDrop = (event: DragEvent<HTMLLIElement>, to: number) => {
    event.preventDefault();
    const id = event.dataTransfer.getData('text/plain') || dragging;
    setDragging(null);
    const from = items.findIndex((item) => item.id === id);
    if (from !== -1) {
      move(from, to);
    }
  };

  return (
    <>
      <ol className="content-list" aria-label={label}>
        {items.map((item, index) => (
          <li
            key={item.id}
            className={`content-list__item${dragging === item.id ? ' content-list__item--dragging' : ''}`}
            onDragOver={(event) => event.preventDefault()}
            onDrop={(event) => handleDrop(event, index)}
            aria-current={editingId === item.id ? 'true' : undefined}
          >
            <button
              type="button"
              className="content-list__handle"
              draggable
              ref={(element) => {
                if (element) {
                  handles.current.set(item.id, element);
                } else {
                  handles.current.delete(item.id);
                }
              }}
              onDragStart={(event) => {
                event.dataTransfer.setData('text/plain', item.id);
                event.dataTransfer.effectAllowed = 'move';
                setDragging(item.id);
              }}
              onDragEnd={() => setDragging(null)}
              onKeyDown={(event) => {
                const to = keyTarget(event.key, index, items.length);
                if (to !== undefined) {
                  event.preventDefault();
                  move(index, to, 'handle');
                }
              }}
              aria-label={`Reorder ${item.title}: position ${index + 1} of ${items.length}`}
              aria-describedby="content-list-reorder-hint"
            >
              <span aria-hidden="true">⠿</span>
            </button>
            <div className="content-list__title">
              <span className="content-list__name">{item.title}</span>
              <span className="admin-muted content-list__id">
                {item.id}
                {item.detail ? ` · ${item.detail}` : ''}
              </span>
            </div>
            {item.published ? (
              <span className="status-badge status-badge--green">Published</span>
            ) : (
              <span className="status-badge status-badge--gray">Draft</span>
            )}
            <ItemActions
              item={item}
              isFirst={index === 0}
              isLast={index === items.length - 1}
              onMove={(step) => move(index, index + step)}
              onEdit={onEdit}
              onTogglePublished={onTogglePublished}
              onDelete={onDelete}
            />
          </li>
        ))}
      </ol>
      <p id="content-list-reorder-hint" className="visually-hidden">
        Drag, or press Arrow Up or Arrow Down to move this item.
      </p>
      <p className="visually-hidden" role="status" aria-live="polite">
        {announcement}
      </p>
    </>
  );
}

/** Where a key on a row's handle moves the row, if it moves it. */
function keyTarget(key: string, index: number, count: number): number | undefined {
  switch (key) {
    case 'ArrowUp':
      return index - 1;
    case 'ArrowDown':
      return index + 1;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return undefined;
  }
}

interface ItemActionsProps<T extends ContentListItem> {
  item: T;
  isFirst: boolean;
  isLast: boolean;
  /** Moves the item one place: -1 up, 1 down. */
  onMove: (step: -1 | 1) => void;
  onEdit: (item: T) => void;
  onTogglePublished: (item: T) => void;
  onDelete: (item: T) => void;
}

/** A row's commands: Move up, Move down, Edit, Publish or Unpublish, Delete. */
function ItemActions<T extends ContentListItem>({
  item,
  isFirst,
  isLast,
  onMove,
  onEdit,
  onTogglePublished,
  onDelete,
}: ItemActionsProps<T>) {
  return (
    <div className="content-list__actions">
      <button
        type="button"
        className="button button--ghost button--small"
        onClick={() => onMove(-1)}
        disabled={isFirst}
        aria-label={`Move ${item.title} up`}
      >
        Move up
      </button>
      <button
        type="button"
        className="button button--ghost button--small"
        onClick={() => onMove(1)}
        disabled={isLast}
        aria-label={`Move ${item.title} down`}
      >
        Move down
      </button>
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() => onEdit(item)}
        aria-label={`Edit ${item.title}`}
      >
        Edit
      </button>
      <button
        type="button"
        className="button button--secondary button--small"
        onClick={() => onTogglePublished(item)}
        aria-label={`${item.published ? 'Unpublish' : 'Publish'} ${item.title}`}
      >
        {item.published ? 'Unpublish' : 'Publish'}
      </button>
      <button
        type="button"
        className="button button--danger button--small"
        onClick={() => onDelete(item)}
        aria-label={`Delete ${item.title}`}
      >
        Delete
      </button>
    </div>
  );
}
