import { describe, expect, it } from 'vitest';

import { decideRouteAccess } from './route-access';

describe('decideRouteAccess', () => {
  it('sends guests on user routes to /login with a way back', () => {
    expect(decideRouteAccess(null, 'user', '/profile')).toEqual({
      kind: 'redirect',
      to: '/login?redirect=%2Fprofile',
    });
  });

  it('sends guests on admin routes to /login?admin=true', () => {
    const access = decideRouteAccess(null, 'admin', '/admin/users/42');
    expect(access.kind).toBe('redirect');
    if (access.kind !== 'redirect') {
      return;
    }
    const url = new URL(access.to, 'http://localhost');
    expect(url.pathname).toBe('/login');
    expect(url.searchParams.get('admin')).toBe('true');
    expect(url.searchParams.get('redirect')).toBe('/admin/users/42');
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
});
