import { describe, expect, it } from 'vitest';

import { safeRedirect, withRedirect } from './safe-redirect';

describe('safeRedirect', () => {
  it('accepts same-site paths', () => {
    expect(safeRedirect('/subscribe')).toBe('/subscribe');
    expect(safeRedirect('/admin/users/7?tab=a')).toBe('/admin/users/7?tab=a');
  });

  it('falls back to / for missing, external or protocol-relative targets', () => {
    expect(safeRedirect(null)).toBe('/');
    expect(safeRedirect('')).toBe('/');
    expect(safeRedirect('https://evil.example')).toBe('/');
    expect(safeRedirect('//evil.example')).toBe('/');
    expect(safeRedirect('/\\evil.example')).toBe('/');
    expect(safeRedirect('javascript:alert(1)')).toBe('/');
  });

  it('falls back to / for targets with control characters or backslashes anywhere', () => {
    // the URL parser drops tabs and newlines and reads \ as /: each of these is //evil.example
    expect(safeRedirect('/\t/evil.example')).toBe('/');
    expect(safeRedirect('/\n/evil.example')).toBe('/');
    expect(safeRedirect('/\r\n/evil.example')).toBe('/');
    expect(safeRedirect('/\t\\evil.example')).toBe('/');
    expect(safeRedirect('/games\\..\\..\\evil')).toBe('/');
    expect(safeRedirect('/\u0000/evil.example')).toBe('/');
    expect(safeRedirect('/profile\u007f')).toBe('/');
    expect(safeRedirect('/\u0085/x')).toBe('/');
    // what the URL spec keeps is fine: an encoded tab is just part of the path
    expect(safeRedirect('/games?q=%09x')).toBe('/games?q=%09x');
  });
});

describe('withRedirect', () => {
  it('carries the destination, or nothing for home', () => {
    expect(withRedirect('/login', '/games?play=A&room=ABCDEF')).toBe(
      '/login?redirect=%2Fgames%3Fplay%3DA%26room%3DABCDEF',
    );
    expect(withRedirect('/login', '/')).toBe('/login');
  });

  it('never sends a sign-in back to the login or register page', () => {
    // a second "please sign in" from the login page itself must not wrap the first one
    const once = withRedirect('/login', '/games?play=A&room=ABCDEF');
    expect(withRedirect('/login', once)).toBe(once);
    expect(withRedirect('/login', `/register?redirect=${encodeURIComponent(once)}`)).toBe(once);
    expect(withRedirect('/register', '/login')).toBe('/register');
    expect(withRedirect('/login', `/Login/?redirect=${encodeURIComponent('/profile')}`)).toBe(
      '/login?redirect=%2Fprofile',
    );
  });

  it('sends a finished sign-in on to where the login page was going', () => {
    expect(safeRedirect('/login?redirect=%2Fsubscribe')).toBe('/subscribe');
    expect(safeRedirect('/login?redirect=https%3A%2F%2Fevil.example')).toBe('/');
    expect(safeRedirect('/logins')).toBe('/logins');
  });
});
