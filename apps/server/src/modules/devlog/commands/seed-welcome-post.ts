import { postAuditLog, posts } from '../../../db/schema.js';
import { recordPostAudit } from '../audit.js';
import { changed, type DevlogContext } from '../context.js';

/** The post a new site starts with (edited or deleted like any other; never written again). */
export const WELCOME_POST = {
  slug: 'welcome-to-the-devlog',
  title: 'Welcome to the devlog',
  summary: null,
  coverImage: null,
  gameId: null,
  body: [
    'This is where news about the games and projects appears: what changed, what is next and',
    'how things are made.',
    '',
    '- Play the [games](/games), browse the [gallery](/Gallery) and read the [tutorials](/Tutorials).',
    '- Follow the [feed](/feed.xml) in any feed reader to hear about new posts.',
  ].join('\n'),
};

/**
 * At a site's first start (no post was ever written): one published welcome post, so the
 * devlog, the home page's list and the feed show what they are for.
 */
export async function seedWelcomePost(ctx: DevlogContext): Promise<void> {
  const [written] = await ctx.db.select({ id: postAuditLog.id }).from(postAuditLog).limit(1);
  if (written) {
    return;
  }
  const described = await ctx.markdown.describe(WELCOME_POST.body);
  await ctx.db.transaction(async (tx) => {
    // two replicas starting together: the slug lets one of them in
    const [inserted] = await tx
      .insert(posts)
      .values({
        ...WELCOME_POST,
        excerpt: described.excerpt,
        bodyImage: described.image,
        published: true,
        publishedAt: ctx.now(),
      })
      .onConflictDoNothing()
      .returning();
    if (inserted) {
      await recordPostAudit(tx, {
        action: 'create',
        actor: null,
        postId: inserted.id,
        postTitle: inserted.title,
        detail: 'the welcome post of a new site',
      });
    }
  });
  changed(ctx);
}
