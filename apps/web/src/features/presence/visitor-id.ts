import { VISITOR_ID_PATTERN } from '@portfolio/types/client';

export const VISITOR_ID_KEY = 'visitorId';

let memoryVisitorId: string | null = null;

/** 24 random base64url characters (18 random bytes). */
export function createVisitorId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(18));
  const base64 = btoa(String.fromCharCode(...bytes));
  return base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The stable anonymous visitor id, kept in localStorage; when storage is unavailable it lives
 * for this page load only.
 */
export function getVisitorId(): string {
  try {
    const stored = window.localStorage.getItem(VISITOR_ID_KEY);
    if (stored !== null && VISITOR_ID_PATTERN.test(stored)) {
      return stored;
    }
    const created = createVisitorId();
    window.localStorage.setItem(VISITOR_ID_KEY, created);
    return created;
  } catch {
    memoryVisitorId ??= createVisitorId();
    return memoryVisitorId;
  }
}
