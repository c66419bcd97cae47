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

/** A Host header's name and port (`[::1]` bracketed), undefined when it is not a host. */
function hostOf(hostHeader: string): { hostname: string; port: string } | undefined {
  try {
    const url = new URL(`http://${hostHeader}`);
    // nothing but a name and a port: no path, user or default port folded away
    return url.host === hostHeader.toLowerCase()
      ? { hostname: url.hostname, port: url.port }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The canonical address of a page asked for at another loopback name of the same port (the site
 * at localhost:3000 when its mail links say 127.0.0.1:3000, or the reverse): browsers keep
 * cookies per host name, so a reset link would sign the user in on one name while their tab
 * stays signed out on the other. Undefined when the request's host is the canonical one, is not
 * a loopback name, or names another port (a proxy in front, the games origin).
 */
export function canonicalLoopbackUrl(
  hostHeader: string | undefined,
  canonicalOrigin: string,
  pathAndQuery: string,
): string | undefined {
  const asked = hostHeader === undefined ? undefined : hostOf(hostHeader);
  const canonical = new URL(canonicalOrigin);
  if (
    !asked ||
    asked.hostname === canonical.hostname ||
    asked.port !== canonical.port ||
    !isLoopbackHostName(asked.hostname) ||
    !isLoopbackHostName(canonical.hostname)
  ) {
    return undefined;
  }
  return `${canonical.origin}${pathAndQuery.startsWith('/') ? pathAndQuery : `/${pathAndQuery}`}`;
}
