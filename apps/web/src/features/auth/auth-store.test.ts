import { describe, expect, it, vi } from 'vitest';

import { apiError, jsonResponse, stubApi } from '../../test/render-app';
import { AuthError } from './auth-error';
import { useAuthStore } from './auth-store';

describe('auth store', () => {
  it('starts loading and sets the user from the current-user call', async () => {
    stubApi({
      'GET /api/auth/current-user': () => jsonResponse({ id: '1', username: 'ann', role: 'user' }),
    });
    expect(useAuthStore.getState().isLoading).toBe(true);
    await useAuthStore.getState().init();
    expect(useAuthStore.getState()).toMatchObject({
      isLoading: false,
      user: { id: '1', username: 'ann', role: 'user' },
    });
  });

  it('continues as a guest when the current-user call fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    await useAuthStore.getState().init();
    expect(useAuthStore.getState()).toMatchObject({ isLoading: false, user: null });
    expect(warn).toHaveBeenCalled();
  });

  it('rejects a failed login with an AuthError', async () => {
    stubApi({ 'POST /api/auth/login': () => apiError(403, 'Account locked') });
    const error: unknown = await useAuthStore
      .getState()
      .login('ann', 'pw', {})
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect(error).toMatchObject({ code: 'AUTH_403', message: 'Account locked' });
    expect(useAuthStore.getState().user).toBeNull();
  });

  it('keeps the user when logout fails and clears it when logout works', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const user = { id: '1', username: 'ann', role: 'user' as const };
    useAuthStore.setState({ user, isLoading: false });

    stubApi({ 'POST /api/auth/logout': () => apiError(500, 'Boom') });
    await useAuthStore.getState().logout();
    expect(useAuthStore.getState().user).toEqual(user);

    stubApi({ 'POST /api/auth/logout': () => jsonResponse({ message: 'Logged out' }) });
    await useAuthStore.getState().logout();
    expect(useAuthStore.getState().user).toBeNull();
  });
});
