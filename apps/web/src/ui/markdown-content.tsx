import type { Components } from 'react-markdown';
import Markdown from 'react-markdown';
import remarkGfm from 'remark-gfm';

import { checkMarkdownLimits } from '@portfolio/types/markdown-limits';

import './markdown.css';
import { safeUrl } from './safe-url';

const components: Components = {
  // A link whose protocol is not allowed has lost its href: show its text, not a dead link.
  a: ({ href, children, node: _node, ...rest }) => {
    if (!href) {
      return <span className="markdown__inert-link">{children}</span>;
    }
    const isExternal = /^https?:/i.test(href);
    return (
      <a
        {...rest}
        href={href}
        {...(isExternal ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
      >
        {children}
      </a>
    );
  },
  // A task list's box is read-only; its name says its state (the item's text follows it).
  input: ({ node: _node, ...rest }) =>
    rest.type === 'checkbox' ? (
      <input {...rest} name="task" aria-label={rest.checked ? 'Done' : 'Not done'} />
    ) : (
      <input {...rest} />
    ),
  // An image whose address was dropped shows its text instead of an empty src.
  img: ({ src, alt, node: _node, ...rest }) =>
    src ? <img {...rest} src={src} alt={alt ?? ''} /> : <span>{alt}</span>,
  // Wide tables scroll inside their own box instead of widening the page.
  table: ({ node: _node, ...rest }) => (
    <div className="markdown__table-wrap" tabIndex={0} role="region" aria-label="Table">
      <table {...rest} />
    </div>
  ),
};

/**
 * Markdown with GitHub's extensions (tables, task lists, strikethrough, footnotes, autolinks);
 * links only for http, https, irc, ircs, mailto and xmpp. Raw HTML is never rendered: it shows
 * as the text it is (react-markdown without rehype-raw), so no script, no event handler and no
 * element the markdown did not make reaches the page. Text over the limits of
 * `@portfolio/types/markdown-limits` (size, nesting) is shown as plain text. Load it lazily (its
 * own chunk): only the pages that show markdown (tutorials, posts, the admin's preview) need it.
 */
export function MarkdownContent({ children }: { children: string }) {
  // remark nests recursively: thousands of list or quote levels would hold the tab for minutes
  // (or overflow its stack), so text past the limits is shown as the plain text it is
  if (!checkMarkdownLimits(children).ok) {
    return (
      <div className="markdown">
        <pre className="markdown__plain">{children}</pre>
      </div>
    );
  }
  return (
    <div className="markdown">
      <Markdown remarkPlugins={[remarkGfm]} urlTransform={safeUrl} components={components}>
        {children}
      </Markdown>
    </div>
  );
}
