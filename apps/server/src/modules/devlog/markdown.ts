import type { Element, Root as HastRoot, RootContent as HastContent } from 'hast';
import type { Root as MdastRoot, RootContent as MdastContent } from 'mdast';
import rehypeSanitize, { defaultSchema } from 'rehype-sanitize';
import rehypeStringify from 'rehype-stringify';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';

import { PostImageUrl } from '@portfolio/types/devlog';

/*
 * The devlog's markdown on the server: the feed's HTML, and what a post's list entry and social
 * card need from its body (a plain-text excerpt, its first image). The same rules as the web
 * app's renderer (ui/markdown-content): GitHub's extensions; raw HTML never passes (remark-rehype
 * drops it without `allowDangerousHtml`); links only for http, https, irc, ircs, mailto and xmpp
 * and images only over http(s) (hast-util-sanitize's GitHub schema, which also strips scripts,
 * event handlers and `style`).
 */

const SCHEMA = {
  ...defaultSchema,
  protocols: {
    ...defaultSchema.protocols,
    href: ['http', 'https', 'irc', 'ircs', 'mailto', 'xmpp'],
    src: ['http', 'https'],
  },
};

const parser = unified().use(remarkParse).use(remarkGfm);

/** Site paths (`/assets/x.png`) in links and images made absolute: a feed is read elsewhere. */
function absoluteSitePaths(origin: string) {
  const fix = (value: unknown) =>
    typeof value === 'string' && value.startsWith('/') && !value.startsWith('//')
      ? `${origin}${value}`
      : value;
  const visit = (node: HastRoot | HastContent) => {
    if (node.type === 'element') {
      const element: Element = node;
      if ('href' in element.properties) {
        element.properties.href = fix(element.properties.href) as string;
      }
      if ('src' in element.properties) {
        element.properties.src = fix(element.properties.src) as string;
      }
    }
    if ('children' in node) {
      node.children.forEach(visit);
    }
  };
  return () => (tree: HastRoot) => visit(tree);
}

/**
 * A post's body as safe HTML for the feed, its site links made absolute with `origin`. No raw
 * HTML, no script, no event handler and no link of another protocol survives.
 */
export function renderMarkdownHtml(markdown: string, origin: string): string {
  return String(
    unified()
      .use(remarkParse)
      .use(remarkGfm)
      .use(remarkRehype)
      .use(absoluteSitePaths(origin))
      .use(rehypeSanitize, SCHEMA)
      .use(rehypeStringify)
      .processSync(markdown),
  );
}

/**
 * What the web app's renderer adds (ui's markdown-content): links to other sites open in a new
 * tab, a wide table scrolls in its own focusable region, a task's box says its state.
 */
function pageAffordances() {
  const visit = (node: HastRoot | HastContent, parent: HastRoot | Element | undefined) => {
    if (node.type === 'element') {
      const element: Element = node;
      const href = element.properties.href;
      if (element.tagName === 'a' && typeof href === 'string' && /^https?:/i.test(href)) {
        element.properties.target = '_blank';
        element.properties.rel = ['noopener', 'noreferrer'];
      }
      if (element.tagName === 'input' && element.properties.type === 'checkbox') {
        element.properties.ariaLabel = element.properties.checked ? 'Done' : 'Not done';
        element.properties.name = 'task';
      }
      if (element.tagName === 'table' && parent) {
        const index = parent.children.indexOf(element);
        parent.children[index] = {
          type: 'element',
          tagName: 'div',
          properties: {
            className: ['markdown__table-wrap'],
            tabIndex: 0,
            role: 'region',
            ariaLabel: 'Table',
          },
          children: [element],
        };
      }
    }
    if ('children' in node) {
      const container = node.type === 'root' || node.type === 'element' ? node : undefined;
      [...node.children].forEach((child) => visit(child, container));
    }
  };
  return () => (tree: HastRoot) => visit(tree, undefined);
}

/**
 * A post's body as the post page shows it: the same markdown rules and sanitizing as the feed,
 * site paths kept as they are, and the page's affordances (pageAffordances).
 */
export function renderPostHtml(markdown: string): string {
  return String(
    unified()
      .use(remarkParse)
      .use(remarkGfm)
      .use(remarkRehype)
      .use(rehypeSanitize, SCHEMA)
      .use(pageAffordances())
      .use(rehypeStringify)
      .processSync(markdown),
  );
}

/** Block nodes whose text is not prose (a summary would read as garbage). */
const SKIPPED = new Set([
  'code',
  'html',
  'image',
  'imageReference',
  'definition',
  'footnoteDefinition',
]);

function plainText(node: MdastRoot | MdastContent, out: string[]): void {
  if (SKIPPED.has(node.type)) {
    return;
  }
  if (node.type === 'text' || node.type === 'inlineCode') {
    out.push(node.value);
    return;
  }
  if ('children' in node) {
    for (const child of node.children) {
      plainText(child, out);
    }
    // blocks end a sentence; inline nodes run on
    if (node.type === 'paragraph' || node.type === 'heading' || node.type === 'tableCell') {
      out.push(' ');
    }
  }
}

function firstImage(node: MdastRoot | MdastContent): string | undefined {
  if (node.type === 'image' && PostImageUrl.safeParse(node.url).success) {
    return node.url;
  }
  if ('children' in node) {
    for (const child of node.children) {
      const found = firstImage(child);
      if (found) {
        return found;
      }
    }
  }
  return undefined;
}

export const EXCERPT_LENGTH = 200;

/** What a post's list entry and card take from its body: a plain-text excerpt and first image. */
export function describeMarkdown(markdown: string): { excerpt: string; image: string | null } {
  const tree = parser.parse(markdown);
  const words: string[] = [];
  plainText(tree, words);
  const text = words.join('').replace(/\s+/g, ' ').trim();
  const excerpt =
    text.length <= EXCERPT_LENGTH
      ? text
      : `${text.slice(0, EXCERPT_LENGTH).replace(/\s+\S*$/, '')}…`;
  return { excerpt, image: firstImage(tree) ?? null };
}
