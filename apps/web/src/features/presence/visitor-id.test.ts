import { describe, expect, it } from 'vitest';

import { createVisitorId, getVisitorId, VISITOR_ID_KEY } from './visitor-id';

describe('visitor id', () => {
  it('is 24 base64url characters', () => {
    expect(createVisitorId()).toMatch(/^[A-Za-z0-9_-]{24}$/);
  });

  it('is created once and kept in localStorage', () => {
    const first = getVisitorId();
    expect(window.localStorage.getItem(VISITOR_ID_KEY)).toBe(first);
    expect(getVisitorId()).toBe(first);
  });

  it('replaces a malformed stored id', () => {
    window.localStorage.setItem(VISITOR_ID_KEY, 'bad id');
    const id = getVisitorId();
    expect(id).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(window.localStorage.getItem(VISITOR_ID_KEY)).toBe(id);
  });
});
