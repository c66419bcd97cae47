import { isDeepStrictEqual } from 'node:util';

import type { ContentAuditAction } from '@portfolio/types/content';

/** An id made from a title ('Prototype Online' → 'prototype-online'), or `fallback`. */
export function slugId(title: string, fallback: string): string {
  const slug = title
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/, '');
  return slug === '' ? fallback : slug;
}

/** The names (as the history writes them) of the fields whose values differ. */
export function changedFields<T extends object>(
  before: T,
  after: T,
  names: Partial<Record<keyof T, string>>,
): string[] {
  return (Object.keys(names) as Array<keyof T>)
    .filter((key) => !isDeepStrictEqual(before[key] ?? null, after[key] ?? null))
    .map((key) => names[key] ?? String(key));
}

/**
 * The audit entry of an edit: publish/unpublish when the status changed (with the fields also
 * changed), else update with the fields; an empty detail when nothing changed.
 */
export function publishAction(
  wasPublished: boolean,
  isPublished: boolean,
  fields: readonly string[],
): { action: ContentAuditAction; detail: string } {
  const changed = fields.length > 0 ? `Changed ${fields.join(', ')}` : '';
  if (wasPublished !== isPublished) {
    const status = isPublished ? 'Published' : 'Unpublished (draft)';
    return {
      action: isPublished ? 'publish' : 'unpublish',
      detail: changed ? `${status}; ${changed.toLowerCase()}` : status,
    };
  }
  return { action: 'update', detail: changed };
}
