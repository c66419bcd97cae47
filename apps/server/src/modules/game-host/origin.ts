import type { IncomingHttpHeaders } from 'node:http';

import type { Config } from '../../config.js';
import { otherLoopbackName } from '../../lib/sites.js';

/*
 * The two origins (the site and the games origin) and how each names the other:
 *
 * - the games origin's public address, for play URLs (catalogue) and the site's CSP frame-src:
 *   GAMES_ORIGIN when set; unset (the embedded default), http://<other name>:<gamesHost.port>,
 *   the other loopback name than the one the browser used for the site (the Host header of the
 *   request being answered, or PUBLIC_ORIGIN's host name when that is set, so a forged Host
 *   header changes nothing): a site on localhost has its games on 127.0.0.1 and the reverse.
 *   Browsers keep cookies per host name, not per port, so a game on the site's own name could
 *   fill the jar until the site's cookies are evicted and then set its own session cookie. A
 *   site on any other name keeps it for its games (development only: production refuses to
 *   start so, see config.ts);
 * - the site's origins allowed to embed the games origin's pages (frame-ancestors) and to be
 *   talked to from games (connect-src): PUBLIC_ORIGIN when set, else 127.0.0.1 and localhost on
 *   PORT.
 *
 * With PORT=0 / GAMES_PORT=0 (tests) startServer writes the bound ports back into the config
 * before anything is served, so these functions see the real ports.
 */

/** A Host header's value: a DNS name or IPv4 address, or a bracketed IPv6 address, then a port. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/i;

/** The host name part of a Host header (`[::1]` keeps its brackets), undefined if malformed. */
export function hostNameOf(host: string | undefined): string | undefined {
  const match = host === undefined ? null : HOST_HEADER.exec(host);
  return match?.[1]?.toLowerCase();
}

type OriginConfig = Pick<Config, 'host' | 'port' | 'publicOrigin' | 'gamesHost'>;

/**
 * The games origin as the browser that sent `req` (a request to the site) must address it.
 * Only the request's Host header is read.
 */
export function gamesOriginFor(
  req: { headers: IncomingHttpHeaders },
  config: Pick<OriginConfig, 'host' | 'publicOrigin' | 'gamesHost'>,
): string {
  if (config.gamesHost.origin) {
    return config.gamesHost.origin;
  }
  const siteHostName =
    (config.publicOrigin ? new URL(config.publicOrigin).hostname : undefined) ??
    hostNameOf(req.headers.host) ??
    fallbackHostName(config.host);
  return `http://${otherLoopbackName(siteHostName) ?? siteHostName}:${config.gamesHost.port}`;
}

function fallbackHostName(host: string): string {
  if (host === '0.0.0.0' || host === '::' || !hostNameOf(host)) {
    return 'localhost';
  }
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * The site's origins: the pages allowed to embed games (frame-ancestors on the games origin) and
 * the origins games may connect to (the site's Socket.IO for multiplayer).
 */
export function siteOriginsFor(config: Pick<OriginConfig, 'port' | 'publicOrigin'>): string[] {
  if (config.publicOrigin) {
    return [config.publicOrigin];
  }
  // not http://[::1]: CSP's source grammar has no IPv6 literals (Chromium rejects the entry and
  // logs an error on every game open)
  return [`http://127.0.0.1:${config.port}`, `http://localhost:${config.port}`];
}

/** An http(s) origin's WebSocket twin (http://x → ws://x), for connect-src. */
export function webSocketOriginOf(origin: string): string {
  return origin.replace(/^http/, 'ws');
}
