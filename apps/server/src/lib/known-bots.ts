import { isbot } from 'isbot';

/** Distinct user agents whose verdict is kept: a site sees a few hundred in a day. */
const MAX_CACHED_AGENTS = 2000;
/** Longer agents (rare, up to 16 KB) are checked every time rather than kept as keys. */
const MAX_CACHED_AGENT_LENGTH = 512;

const verdicts = new Map<string, boolean>();

/**
 * A known bot's user agent (crawlers, Googlebot old and Chrome-based, headless browsers, HTTP
 * libraries): the one detector of the site, used by analytics and by presence.
 *
 * Every guest heartbeat asks, and `isbot`'s pattern costs ~5 µs on a browser's agent (as much as
 * a tenth of a heartbeat), so verdicts are kept per agent string, up to MAX_CACHED_AGENTS (the
 * oldest dropped first).
 */
export function isKnownBot(userAgent: string | undefined): boolean {
  if (!userAgent) {
    return false;
  }
  const known = verdicts.get(userAgent);
  if (known !== undefined) {
    return known;
  }
  const verdict = isbot(userAgent);
  if (userAgent.length <= MAX_CACHED_AGENT_LENGTH) {
    if (verdicts.size >= MAX_CACHED_AGENTS) {
      const oldest = verdicts.keys().next();
      if (!oldest.done) {
        verdicts.delete(oldest.value);
      }
    }
    verdicts.set(userAgent, verdict);
  }
  return verdict;
}
