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
});
