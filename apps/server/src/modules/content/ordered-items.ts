import { randomBytes } from 'node:crypto';

import { eq, max } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';

import type { ContentAuditAction, ContentKind } from '@portfolio/types/content';

import type { Db } from '../../db/client.js';
import { badRequest, conflict, type HttpError, notFound } from '../../lib/errors.js';
import type { Actor } from '../../access/audit.js';
import { recordContentAudit } from './audit.js';
import { slugId } from './edit-helpers.js';

/**
 * A table of the owner's content kept in the admin's order (gallery projects, tutorials), and the
 * commands such tables share; each runs inside the caller's transaction, with its audit entry.
 */
export interface OrderedItemsTable {
  table: PgTable & { id: PgColumn; position: PgColumn };
  kind: ContentKind;
  /** How errors name one item: 'gallery project', 'tutorial'. */
  noun: string;
  /** The id of an item whose title makes no slug. */
  fallbackId: string;
}

export function orderedItems({ table, kind, noun, fallbackId }: OrderedItemsTable) {
  const isTaken = async (tx: Db, id: string) =>
    (await tx.select({ id: table.id }).from(table).where(eq(table.id, id))).length > 0;
  /** 409 for an id another item has. */
  const taken = (id: string): HttpError => conflict(`A ${noun} with the id '${id}' exists already`);

  return {
    taken,

    /** 404 for an id that names no item. */
    noSuch: (id: string): HttpError => notFound(`No ${noun} with the id '${id.slice(0, 64)}'`),

    /**
     * The id of a new item: the one asked for (409 when taken), else a slug of its title, with a
     * random suffix when another item has that slug.
     */
    async newId(tx: Db, requested: string | undefined, title: string): Promise<string> {
      if (requested !== undefined) {
        if (await isTaken(tx, requested)) {
          throw taken(requested);
        }
        return requested;
      }
      const id = slugId(title, fallbackId);
      return (await isTaken(tx, id)) ? `${id}-${randomBytes(3).toString('hex')}` : id;
    },

    /** The position after the last item (a new item goes to the end). */
    async nextPosition(tx: Db): Promise<number> {
      const [last] = await tx.select({ position: max(table.position) }).from(table);
      return typeof last?.position === 'number' ? last.position + 1 : 0;
    },

    /** The history entry of an item just added (or of a draft). */
    recordCreated: (
      tx: Db,
      item: { id: string; title: string; published: boolean },
      actor: Actor,
    ) =>
      recordContentAudit(tx, {
        kind,
        itemId: item.id,
        action: 'create',
        actor,
        detail: `Added '${item.title}' as ${item.published ? 'published' : 'a draft'}`,
      }),

    /** The history entry of an edit (see `publishAction`); none when nothing changed. */
    recordEdited: async (
      tx: Db,
      id: string,
      { action, detail }: { action: ContentAuditAction; detail: string },
      actor: Actor,
    ) => {
      if (detail !== '') {
        await recordContentAudit(tx, { kind, itemId: id, action, actor, detail });
      }
    },

    /** The history entry of an item just deleted. */
    recordDeleted: (tx: Db, item: { id: string; title: string }, actor: Actor) =>
      recordContentAudit(tx, {
        kind,
        itemId: item.id,
        action: 'delete',
        actor,
        detail: `Deleted '${item.title}'`,
      }),

    /** Puts every item at its index in `ids`, which must name each item once (else 400). */
    async reorder(tx: Db, ids: readonly string[], actor: Actor): Promise<void> {
      const rows = await tx.select({ id: table.id }).from(table).for('update');
      const known = new Set(rows.map((row) => String(row.id)));
      if (new Set(ids).size !== ids.length || ids.length !== known.size) {
        throw badRequest(`ids: must list every ${noun} once`);
      }
      const unknown = ids.find((id) => !known.has(id));
      if (unknown !== undefined) {
        throw badRequest(`ids: there is no ${noun} '${unknown.slice(0, 64)}'`);
      }
      for (const [position, id] of ids.entries()) {
        await tx.update(table).set({ position }).where(eq(table.id, id));
      }
      await recordContentAudit(tx, {
        kind,
        itemId: null,
        action: 'reorder',
        actor,
        detail: `New order: ${ids.join(', ')}`,
      });
    },
  };
}
