/** An http(s) address in a message's text (links in mail end at white space). */
const ADDRESS = /https?:\/\/[^\s<>"]+/g;

/**
 * A message's plain text as it was written, its http(s) addresses as links (a reset or
 * confirmation link can be followed from here when no SMTP server sent it).
 */
export function MailText({ text }: { text: string }) {
  const parts: Array<string | { href: string }> = [];
  let last = 0;
  for (const match of text.matchAll(ADDRESS)) {
    const href = match[0].replace(/[.,;:!?)]+$/, '');
    parts.push(text.slice(last, match.index), { href });
    last = match.index + href.length;
  }
  parts.push(text.slice(last));
  return (
    <pre className="admin-mail__text">
      {parts.map((part, index) =>
        typeof part === 'string' ? (
          part
        ) : (
          <a key={index} href={part.href}>
            {part.href}
          </a>
        ),
      )}
    </pre>
  );
}
