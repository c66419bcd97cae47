import { randomBytes } from 'node:crypto';

import { eq, max } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

import type { ContentKind } from '@portfolio/types/content';

import type { Db } from '../../db/client.js';
import { badRequest, conflict, type HttpError, notFound } from '../../lib/errors.js';
import type { Actor } from '../users/audit.js';
import { recordContentAudit } from './audit.js';
import { slugId } from './edit-helpers.js';

/**
 * A table of the owner's content kept in the admin's order (gallery projects, tutorials): the
 * commands they share, each run inside the caller's transaction with its audit entry.
 */
export interface OrderedItems {
  table: PgTable & { id: PgColumn; position: PgColumn };
  kind: ContentKind;
  /** How errors name one item: 'gallery project', 'tutorial'. */
  noun: string;
  /** The id of an item whose title makes no slug. */
  fallbackId: string;
}

/** 404 for an id that names no item. */
export function noSuchItem(items: OrderedItems, id: string): HttpError {
  return notFound(`No ${items.noun} with the id '${id.slice(0, 64)}'`);
}

/** 409 for an id another item has. */
export function takenId(items: OrderedItems, id: string): HttpError {
  return conflict(`A ${items.noun} with the id '${id}' exists already`);
}

/**
 * The id of a new item: the one asked for (409 when taken), else a slug of its title, with a
 * random suffix when another item has that slug.
 */
export async function newItemId(
  tx: Db,
  items: OrderedItems,
  requested: string | undefined,
  title: string,
): Promise<string> {
  const { table } = items;
  const isTaken = async (id: string) =>
    (await tx.select({ id: table.id }).from(table).where(eq(table.id, id))).length > 0;
  if (requested !== undefined) {
    if (await isTaken(requested)) {
      throw takenId(items, requested);
    }
    return requested;
  }
  const id = slugId(title, items.fallbackId);
  return (await isTaken(id)) ? `${id}-${randomBytes(3).toString('hex')}` : id;
}

/** The position after the last item (a new item goes to the end). */
export async function nextPosition(tx: Db, items: OrderedItems): Promise<number> {
  const [last] = await tx.select({ position: max(items.table.position) }).from(items.table);
  return typeof last?.position === 'number' ? last.position + 1 : 0;
}

/** Puts every item at its index in `ids`, which must name each item once (else 400), audited. */
export async function reorderItems(
  tx: Db,
  items: OrderedItems,
  ids: readonly string[],
  actor: Actor,
): Promise<void> {
  const { table } = items;
  const rows = await tx.select({ id: table.id }).from(table).for('update');
  const known = new Set(rows.map((row) => String(row.id)));
  if (new Set(ids).size !== ids.length || ids.length !== known.size) {
    throw badRequest(`ids: must list every ${items.noun} once`);
  }
  const unknown = ids.find((id) => !known.has(id));
  if (unknown !== undefined) {
    throw badRequest(`ids: there is no ${items.noun} '${unknown.slice(0, 64)}'`);
  }
  for (const [position, id] of ids.entries()) {
    await tx.update(table).set({ position }).where(eq(table.id, id));
  }
  await recordContentAudit(tx, {
    kind: items.kind,
    itemId: null,
    action: 'reorder',
    actor,
    detail: `New order: ${ids.join(', ')}`,
  });
}
