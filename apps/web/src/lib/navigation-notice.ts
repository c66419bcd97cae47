/**
 * Navigation state an admin list shows a notice for: a deletion on a detail page goes back to its
 * list (the dashboard, the games) with what happened.
 */
export interface NoticeState {
  notice: string;
}

/** The notice in a location's state, if there is one. */
export function noticeOf(state: unknown): string | null {
  return typeof state === 'object' &&
    state !== null &&
    'notice' in state &&
    typeof state.notice === 'string'
    ? state.notice
    : null;
}
