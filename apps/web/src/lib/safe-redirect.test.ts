import { describe, expect, it } from 'vitest';

import { safeRedirect } from './safe-redirect';

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
