import { randomBytes } from 'node:crypto';

import { eq, max } from 'drizzle-orm';

import {
  type AdminTutorial,
  CreateTutorialRequest,
  type UpdateTutorialRequest,
} from '@portfolio/types/content';

import type { Db } from '../../db/client.js';
import { tutorials } from '../../db/schema.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { parseInput } from '../../lib/validate.js';
import type { Actor } from '../users/audit.js';
import { recordContentAudit } from './audit.js';
import { changedFields, publishAction, slugId } from './edit-helpers.js';
import { type ContentStore, toAdminTutorial, tutorialOrder } from './store.js';

/** The admin's tutorial commands: each one writes its audit entry in its transaction. */
export interface TutorialsAdmin {
  list(): Promise<AdminTutorial[]>;
  create(input: CreateTutorialRequest, actor: Actor): Promise<AdminTutorial>;
  update(id: string, input: UpdateTutorialRequest, actor: Actor): Promise<AdminTutorial>;
  delete(id: string, actor: Actor): Promise<void>;
  reorder(ids: readonly string[], actor: Actor): Promise<AdminTutorial[]>;
}

const noSuchTutorial = (id: string) => notFound(`No tutorial with the id '${id.slice(0, 64)}'`);

export function createTutorialsAdmin(deps: { db: Db; store: ContentStore }): TutorialsAdmin {
  const { db, store } = deps;

  const list = async () =>
    (
      await db
        .select()
        .from(tutorials)
        .orderBy(...tutorialOrder)
    ).map(toAdminTutorial);

  return {
    list,

    async create(input, actor) {
      const row = await db.transaction(async (tx) => {
        const isTaken = async (id: string) =>
          (await tx.select({ id: tutorials.id }).from(tutorials).where(eq(tutorials.id, id)))
            .length > 0;
        let id = input.id;
        if (id !== undefined && (await isTaken(id))) {
          throw conflict(`A tutorial with the id '${id}' exists already`);
        }
        if (id === undefined) {
          id = slugId(input.title, 'tutorial');
          if (await isTaken(id)) {
            id = `${id}-${randomBytes(3).toString('hex')}`;
          }
        }
        const [last] = await tx.select({ position: max(tutorials.position) }).from(tutorials);
        const [inserted] = await tx
          .insert(tutorials)
          .values({
            id,
            title: input.title,
            section: input.section,
            type: input.type,
            content: input.content,
            iframeSrc: input.type === 'iframe' ? (input.iframeSrc ?? null) : null,
            position: (last?.position ?? -1) + 1,
            published: input.published ?? false,
          })
          .returning();
        if (!inserted) {
          throw conflict(`A tutorial with the id '${id}' exists already`);
        }
        await recordContentAudit(tx, {
          kind: 'tutorial',
          itemId: id,
          action: 'create',
          actor,
          detail: `Added '${input.title}' as ${inserted.published ? 'published' : 'a draft'}`,
        });
        return inserted;
      });
      await store.changed();
      return toAdminTutorial(row);
    },

    async update(id, input, actor) {
      const row = await db.transaction(async (tx) => {
        const [before] = await tx
          .select()
          .from(tutorials)
          .where(eq(tutorials.id, id))
          .for('update');
        if (!before) {
          throw noSuchTutorial(id);
        }
        // the result is checked whole: a change of type may need an address or content
        const merged = parseInput(CreateTutorialRequest, {
          title: input.title ?? before.title,
          section: input.section ?? before.section,
          type: input.type ?? before.type,
          content: input.content ?? before.content,
          iframeSrc: input.iframeSrc === undefined ? before.iframeSrc : input.iframeSrc,
          published: input.published ?? before.published,
        });
        const [after] = await tx
          .update(tutorials)
          .set({
            title: merged.title,
            section: merged.section,
            type: merged.type,
            content: merged.content,
            iframeSrc: merged.type === 'iframe' ? (merged.iframeSrc ?? null) : null,
            published: merged.published ?? before.published,
            updatedAt: new Date(),
          })
          .where(eq(tutorials.id, id))
          .returning();
        if (!after) {
          throw noSuchTutorial(id);
        }
        const fields = changedFields(before, after, {
          title: 'title',
          section: 'section',
          type: 'type',
          content: 'content',
          iframeSrc: 'iframe address',
        });
        const { action, detail } = publishAction(before.published, after.published, fields);
        if (detail !== '') {
          await recordContentAudit(tx, { kind: 'tutorial', itemId: id, action, actor, detail });
        }
        return after;
      });
      await store.changed();
      return toAdminTutorial(row);
    },

    async delete(id, actor) {
      await db.transaction(async (tx) => {
        const [deleted] = await tx.delete(tutorials).where(eq(tutorials.id, id)).returning();
        if (!deleted) {
          throw noSuchTutorial(id);
        }
        await recordContentAudit(tx, {
          kind: 'tutorial',
          itemId: id,
          action: 'delete',
          actor,
          detail: `Deleted '${deleted.title}'`,
        });
      });
      await store.changed();
    },

    async reorder(ids, actor) {
      await db.transaction(async (tx) => {
        const rows = await tx.select({ id: tutorials.id }).from(tutorials).for('update');
        const known = new Set(rows.map((row) => row.id));
        if (new Set(ids).size !== ids.length || ids.length !== known.size) {
          throw badRequest('ids: must list every tutorial once');
        }
        const unknown = ids.find((id) => !known.has(id));
        if (unknown !== undefined) {
          throw badRequest(`ids: there is no tutorial '${unknown.slice(0, 64)}'`);
        }
        for (const [position, id] of ids.entries()) {
          await tx.update(tutorials).set({ position }).where(eq(tutorials.id, id));
        }
        await recordContentAudit(tx, {
          kind: 'tutorial',
          itemId: null,
          action: 'reorder',
          actor,
          detail: `New order: ${ids.join(', ')}`,
        });
      });
      await store.changed();
      return list();
    },
  };
}
