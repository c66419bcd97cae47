import { DEFAULT_DESCRIPTION, FEED_PATH, SITE_NAME } from '@portfolio/types';
import type { Post } from '@portfolio/types/devlog';

const escapeXml = (text: string) =>
  text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // characters XML 1.0 cannot hold at all (a pasted control character would break the feed)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '');

/** A post's address on the site. */
export const postPath = (slug: string) => `/devlog/${encodeURIComponent(slug)}`;

/**
 * The devlog as an Atom 1.0 feed (RFC 4287): the newest posts with their summary and their body
 * as sanitized HTML, every address absolute under `origin`. Entry ids are tag-free permanent
 * URNs of the post's id, so a renamed slug is not a new entry to feed readers.
 */
export async function atomFeed(
  origin: string,
  posts: readonly Post[],
  author: string,
  /** A body as sanitized HTML, its site paths absolute (the devlog service's feedHtml). */
  bodyHtml: (body: string) => Promise<string>,
): Promise<string> {
  const updated = posts.reduce(
    (latest, post) => (post.updatedAt > latest ? post.updatedAt : latest),
    posts[0]?.publishedAt ?? new Date(0).toISOString(),
  );
  const htmls = await Promise.all(posts.map((post) => bodyHtml(post.body)));
  const entries = posts.map((post, index) => {
    const url = `${origin}${postPath(post.slug)}`;
    const html = htmls[index] ?? '';
    return [
      '  <entry>',
      `    <id>urn:uuid:${post.id}</id>`,
      `    <title type="text">${escapeXml(post.title)}</title>`,
      `    <link rel="alternate" type="text/html" href="${escapeXml(url)}"/>`,
      `    <published>${post.publishedAt}</published>`,
      `    <updated>${post.updatedAt > post.publishedAt ? post.updatedAt : post.publishedAt}</updated>`,
      `    <summary type="text">${escapeXml(post.summary)}</summary>`,
      `    <content type="html">${escapeXml(html)}</content>`,
      '  </entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${escapeXml(`${origin}/devlog`)}</id>`,
    `  <title type="text">${escapeXml(`Devlog | ${SITE_NAME}`)}</title>`,
    `  <subtitle type="text">${escapeXml(DEFAULT_DESCRIPTION)}</subtitle>`,
    `  <updated>${updated}</updated>`,
    `  <author><name>${escapeXml(author)}</name><uri>${escapeXml(origin)}/</uri></author>`,
    `  <link rel="self" type="application/atom+xml" href="${escapeXml(`${origin}${FEED_PATH}`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${escapeXml(`${origin}/devlog`)}"/>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}
