import { getDomain } from 'tldts';

/*
 * Browsers keep one cookie jar per host name, whatever the port or scheme, and a page may set
 * cookies for its registrable domain (`Domain=example.com` from games.example.com). So only
 * another registrable domain ("site") keeps a page from filling, evicting or shadowing another
 * one's cookies. The public suffix list decides what is registrable (a.github.io and
 * b.github.io are two sites, games.example.com and example.com one), as browsers do.
 */

/** A host name's site: its registrable domain, or the name itself (IP addresses, localhost). */
export function siteOfHostName(hostName: string): string {
  const name = hostName.toLowerCase().replace(/\.$/, '');
  return getDomain(name, { allowPrivateDomains: true }) ?? name;
}

/** Whether two origins' pages share a cookie jar: the same registrable domain (or host). */
export function isSameSite(origin: string, other: string): boolean {
  return siteOfHostName(new URL(origin).hostname) === siteOfHostName(new URL(other).hostname);
}

/** Whether a host name (`[::1]` bracketed or not) names this machine's loopback interface. */
export function isLoopbackHostName(hostName: string): boolean {
  return (
    hostName === 'localhost' ||
    hostName === '[::1]' ||
    hostName === '::1' ||
    /^127(\.\d{1,3}){3}$/.test(hostName)
  );
}

/** The other loopback name: a page on one never shares cookies with a page on the other. */
export function otherLoopbackName(hostName: string): string | undefined {
  if (hostName === 'localhost') {
    return '127.0.0.1';
  }
  return isLoopbackHostName(hostName) ? 'localhost' : undefined;
}
