/**
 * Returns the post-login destination when it is a same-site path ('/…' but not '//…' or '/\…'),
 * else the fallback, so a crafted link cannot send users to another site.
 */
export function safeRedirect(target: string | null | undefined, fallback = '/'): string {
  if (!target || !target.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) {
    return fallback;
  }
  return target;
}
