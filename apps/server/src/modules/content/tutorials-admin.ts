import { eq } from 'drizzle-orm';

import {
  type AdminTutorial,
  CreateTutorialRequest,
  type UpdateTutorialRequest,
} from '@portfolio/types/content';

import type { Db } from '../../db/client.js';
import { tutorials } from '../../db/schema.js';
import { parseInput } from '../../lib/validate.js';
import type { Actor } from '../../access/audit.js';
import { changedFields, publishAction } from './edit-helpers.js';
import { orderedItems } from './ordered-items.js';
import { type ContentStore, toAdminTutorial, tutorialOrder } from './store.js';

/** The admin's tutorial commands: each one writes its audit entry in its transaction. */
export interface TutorialsAdmin {
  list(): Promise<AdminTutorial[]>;
  create(input: CreateTutorialRequest, actor: Actor): Promise<AdminTutorial>;
  update(id: string, input: UpdateTutorialRequest, actor: Actor): Promise<AdminTutorial>;
  delete(id: string, actor: Actor): Promise<void>;
  reorder(ids: readonly string[], actor: Actor): Promise<AdminTutorial[]>;
}

const TUTORIALS = orderedItems({
  table: tutorials,
  kind: 'tutorial',
  noun: 'tutorial',
  fallbackId: 'tutorial',
});

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
        const id = await TUTORIALS.newId(tx, input.id, input.title);
        const [inserted] = await tx
          .insert(tutorials)
          .values({
            id,
            title: input.title,
            section: input.section,
            type: input.type,
            content: input.content,
            iframeSrc: input.type === 'iframe' ? (input.iframeSrc ?? null) : null,
            position: await TUTORIALS.nextPosition(tx),
            published: input.published ?? false,
          })
          .returning();
        if (!inserted) {
          throw TUTORIALS.taken(id);
        }
        await TUTORIALS.recordCreated(tx, inserted, actor);
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
          throw TUTORIALS.noSuch(id);
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
          throw TUTORIALS.noSuch(id);
        }
        const fields = changedFields(before, after, {
          title: 'title',
          section: 'section',
          type: 'type',
          content: 'content',
          iframeSrc: 'iframe address',
        });
        await TUTORIALS.recordEdited(
          tx,
          id,
          publishAction(before.published, after.published, fields),
          actor,
        );
        return after;
      });
      await store.changed();
      return toAdminTutorial(row);
    },

    async delete(id, actor) {
      await db.transaction(async (tx) => {
        const [deleted] = await tx.delete(tutorials).where(eq(tutorials.id, id)).returning();
        if (!deleted) {
          throw TUTORIALS.noSuch(id);
        }
        await TUTORIALS.recordDeleted(tx, deleted, actor);
      });
      await store.changed();
    },

    async reorder(ids, actor) {
      await db.transaction((tx) => TUTORIALS.reorder(tx, ids, actor));
      await store.changed();
      return list();
    },
  };
}
