/** Spec section 2: the only link protocols a markdown tutorial may use. */
export const ALLOWED_PROTOCOLS: ReadonlySet<string> = new Set([
  'http',
  'https',
  'irc',
  'ircs',
  'mailto',
  'xmpp',
]);

/**
 * The URL as written when it is relative or uses an allowed protocol, else '' (react-markdown's
 * urlTransform contract; an empty link is then rendered inert). Like a browser, a colon after
 * the first '/', '?' or '#' is part of a relative path, not a protocol.
 */
export function safeUrl(url: string): string {
  const colon = url.indexOf(':');
  const boundaries = ['/', '?', '#']
    .map((mark) => url.indexOf(mark))
    .filter((position) => position !== -1);
  if (colon === -1 || boundaries.some((position) => position < colon)) {
    return url;
  }
  // browsers ignore tabs and line breaks inside a scheme ("java\tscript:")
  const protocol = url
    .slice(0, colon)
    .replace(/[\t\n\r]/g, '')
    .trim()
    .toLowerCase();
  return ALLOWED_PROTOCOLS.has(protocol) ? url : '';
}
