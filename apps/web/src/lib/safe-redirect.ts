/**
 * Returns the post-login destination when it is a same-site path ('/…' but not '//…'), else the
 * fallback, so a crafted link cannot send users to another site. Control characters and
 * backslashes are refused anywhere: the URL parser drops tabs and newlines and reads '\' as '/',
 * so '/\t/evil.example' and '/\evil.example' would both be '//evil.example'.
 */
export function safeRedirect(target: string | null | undefined, fallback = '/'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || /[\\\p{Cc}]/u.test(target)) {
    return fallback;
  }
  // the login and register pages are only ever on the way: a destination that is one of them
  // is replaced by the page it would go on to, so a sign-in never ends on the login page
  const { pathname, searchParams } = new URL(target, 'http://site.invalid');
  if (/^\/(login|register)\/?$/i.test(pathname)) {
    return safeRedirect(searchParams.get('redirect'), fallback);
  }
  return target;
}

/**
 * `path` carrying `destination` in its `redirect` query (for the links between login and
 * register), or `path` alone when the destination is home.
 */
export function withRedirect(path: string, destination: string): string {
  const final = safeRedirect(destination);
  return final === '/' ? path : `${path}?redirect=${encodeURIComponent(final)}`;
}
