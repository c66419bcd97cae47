import { describe, expect, it } from 'vitest';

import { decideRouteAccess, readLoginState } from './route-access';

describe('decideRouteAccess', () => {
  it('sends guests on user routes to /login, remembering the way back', () => {
    expect(decideRouteAccess(null, 'user', '/profile')).toEqual({
      kind: 'redirect',
      to: '/login',
      returnTo: '/profile',
    });
  });

  it('sends guests on admin routes to /login?admin=true', () => {
    expect(decideRouteAccess(null, 'admin', '/admin/users/42')).toEqual({
      kind: 'redirect',
      to: '/login?admin=true',
      returnTo: '/admin/users/42',
    });
  });

  it('lets any signed-in user into user routes', () => {
    for (const role of ['user', 'subscriber', 'admin'] as const) {
      expect(decideRouteAccess({ role }, 'user', '/profile')).toEqual({ kind: 'allow' });
    }
  });

  it('sends signed-in users lacking the admin role home', () => {
    expect(decideRouteAccess({ role: 'user' }, 'admin', '/admin')).toEqual({
      kind: 'redirect',
      to: '/',
    });
    expect(decideRouteAccess({ role: 'subscriber' }, 'admin', '/admin')).toEqual({
      kind: 'redirect',
      to: '/',
    });
  });

  it('lets admins into admin routes', () => {
    expect(decideRouteAccess({ role: 'admin' }, 'admin', '/admin')).toEqual({ kind: 'allow' });
  });

  it('reads only well-formed login state', () => {
    expect(readLoginState({ returnTo: '/admin', registered: true })).toEqual({
      returnTo: '/admin',
      registered: true,
    });
    expect(readLoginState({ returnTo: 42, registered: 'yes' })).toEqual({});
    expect(readLoginState(null)).toEqual({});
  });
});
