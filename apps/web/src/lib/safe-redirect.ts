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
  return target;
}
