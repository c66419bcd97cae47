import type { SiteTextsRequest } from '@portfolio/types/content';

import type { Db } from '../../db/client.js';
import { siteContent } from '../../db/schema.js';
import type { Actor } from '../../access/audit.js';
import { recordContentAudit } from './audit.js';
import type { ContentStore, SiteTexts } from './store.js';

/** The site's name and the home page's texts, edited by the admin. */
export interface SiteAdmin {
  get(): SiteTexts;
  update(input: SiteTextsRequest, actor: Actor): Promise<SiteTexts>;
}

export function createSiteAdmin(deps: { db: Db; store: ContentStore }): SiteAdmin {
  const { db, store } = deps;
  return {
    get: () => store.siteTexts(),
    async update(input, actor) {
      const before = store.siteTexts();
      const changed = [
        input.siteName !== before.siteName ? 'site name' : '',
        input.home.title !== before.home.title || input.home.lead !== before.home.lead
          ? 'home intro'
          : '',
        JSON.stringify(input.home.cards) !== JSON.stringify(before.home.cards) ? 'home cards' : '',
      ].filter(Boolean);
      await db.transaction(async (tx) => {
        const now = new Date();
        for (const row of [
          { key: 'site', value: { name: input.siteName } },
          { key: 'home', value: input.home },
        ]) {
          await tx
            .insert(siteContent)
            .values({ ...row, updatedAt: now })
            .onConflictDoUpdate({
              target: siteContent.key,
              set: { value: row.value, updatedAt: now },
            });
        }
        if (changed.length > 0) {
          await recordContentAudit(tx, {
            kind: 'site',
            itemId: null,
            action: 'update',
            actor,
            detail: `Changed ${changed.join(', ')}`,
          });
        }
      });
      await store.changed();
      return store.siteTexts();
    },
  };
}
