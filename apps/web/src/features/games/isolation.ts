/*
 * Cross-origin isolation for games whose build uses threads (SharedArrayBuffer). A browser lets
 * a frame be isolated only inside an isolated page, and the site isolates only the documents
 * asked for with `isolated=1` (the server then sends COOP same-origin and COEP require-corp), so
 * such a game opens as a page load of its own, and leaving it loads the next page normally.
 */

/** The query parameter the server answers with the isolating headers. */
export const ISOLATED_PARAM = 'isolated';

/** The viewer's address for a game: `/games?play=<id>`, with `&isolated=1` when it needs it. */
export function playPath(gameId: string, needsIsolation: boolean): string {
  const path = `/games?play=${encodeURIComponent(gameId)}`;
  return needsIsolation ? `${path}&${ISOLATED_PARAM}=1` : path;
}

export function hasIsolatedParam(search: string): boolean {
  return new URLSearchParams(search).get(ISOLATED_PARAM) === '1';
}

/** Whether this document is cross-origin isolated (false where the browser has no such notion). */
export function isDocumentIsolated(): boolean {
  return typeof window !== 'undefined' && window.crossOriginIsolated === true;
}

/*
 * A game opened from the list as a page load of its own has no router state saying so; the
 * card leaves its address here, so Close can go back to the list rather than add an entry.
 */
const OPENED_FROM_LIST_KEY = 'games:opened-from-list';

export function rememberOpenedFromList(path: string): void {
  try {
    sessionStorage.setItem(OPENED_FROM_LIST_KEY, path);
  } catch {
    // storage refused (private mode): Close then replaces the entry instead
  }
}

/** Whether the current address was opened from the list as a page load (read once). */
export function takeOpenedFromList(currentPath: string): boolean {
  try {
    const remembered = sessionStorage.getItem(OPENED_FROM_LIST_KEY);
    sessionStorage.removeItem(OPENED_FROM_LIST_KEY);
    return remembered === currentPath;
  } catch {
    return false;
  }
}
