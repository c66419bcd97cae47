import { describe, expect, it } from 'vitest';

import { canonicalPagePath, findSitePage, pageViewPath } from './pages.js';
import * as classic from './index.js';
import { CurrentUser, CurrentUserResponse } from './session.js';

describe('canonicalPagePath', () => {
  it.each([
    ['/gallery', '/Gallery'],
    ['/GALLERY/', '/Gallery'],
    ['/Gallery', '/Gallery'],
    ['/tutorials', '/Tutorials'],
    ['/gallery/project-1', '/Gallery/project-1'],
    ['/Games', '/games'],
    ['/games/Wolfscape/', '/games/Wolfscape'],
    ['/', '/'],
    ['', '/'],
    ['/no-such-page', '/no-such-page'],
    ['/administrator', '/administrator'],
  ])('reports %s as %s', (typed, canonical) => {
    expect(canonicalPagePath(typed)).toBe(canonical);
  });
});

describe('findSitePage', () => {
  it('finds a page by any case and trailing slash, and nothing for other paths', () => {
    expect(findSitePage('/tutorials/')?.path).toBe('/Tutorials');
    expect(findSitePage('/nope')).toBeUndefined();
  });
});

describe('pageViewPath', () => {
  it.each([
    ['/games', '?play=Pong', '/games?play=Pong'],
    ['/Games/', '?utm_source=x&play=Wolf%20Scape', '/games?play=Wolf%20Scape'],
    ['/games', '?isolated=1', '/games'],
    ['/gallery', '?project=p1&media=3', '/Gallery?project=p1'],
    ['/Tutorials', '?play=Pong', '/Tutorials'],
    ['/devlog/welcome', '?utm_campaign=launch', '/devlog/welcome'],
    ['/', '', '/'],
  ])('counts %s%s as %s', (pathname, search, counted) => {
    expect(pageViewPath(pathname, search)).toBe(counted);
  });
});

describe('the light schemas', () => {
  it('are the ones the root export gives the server', () => {
    expect(classic.CurrentUser).toBe(CurrentUser);
    expect(classic.CurrentUserResponse).toBe(CurrentUserResponse);
  });

  it('read a signed-in user and a guest, and refuse other shapes', () => {
    const user = { id: '1', username: 'ann', role: 'admin' };
    expect(CurrentUserResponse.parse({ user })).toEqual({ user });
    expect(CurrentUserResponse.parse({ user: null })).toEqual({ user: null });
    expect(CurrentUserResponse.safeParse({ user: { ...user, role: 'owner' } }).success).toBe(false);
    expect(CurrentUserResponse.safeParse(user).success).toBe(false);
  });
});
