import { CurrentUser } from '@portfolio/types';
import { describe, expect, it, vi } from 'vitest';

import { http } from '../../lib/http';
import { apiError, jsonResponse, stubApi } from '../../test/render-app';
import { AuthError } from './auth-error';
import { useAuthStore } from './auth-store';

describe('auth store', () => {
  it('starts loading and sets the user from the current-user call', async () => {
    stubApi({
      'GET /api/auth/current-user': () =>
        jsonResponse({ user: { id: '1', username: 'ann', role: 'user' } }),
    });
    expect(useAuthStore.getState().isLoading).toBe(true);
    await useAuthStore.getState().init();
    expect(useAuthStore.getState()).toMatchObject({
      isLoading: false,
      user: { id: '1', username: 'ann', role: 'user' },
    });
  });

  it('continues as a guest, quietly, when the server says no one is signed in', async () => {
    const warn = vi.spyOn(console, 'warn');
    const error = vi.spyOn(console, 'error');
    stubApi({ 'GET /api/auth/current-user': () => jsonResponse({ user: null }) });
    await useAuthStore.getState().init();
    expect(useAuthStore.getState()).toMatchObject({ isLoading: false, user: null });
    expect(warn).not.toHaveBeenCalled();
    expect(error).not.toHaveBeenCalled();
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

  describe('when the session ends on the server', () => {
    async function signIn() {
      stubApi({
        'GET /api/auth/current-user': () =>
          jsonResponse({ user: { id: '1', username: 'ann', role: 'user' } }),
        'GET /api/user/profile': () => apiError(401, 'Authentication required', 'UNAUTHORIZED'),
        'POST /api/user/change-password': () =>
          apiError(401, 'Current password is incorrect', 'INVALID_PASSWORD'),
      });
      await useAuthStore.getState().init();
      expect(useAuthStore.getState().user).not.toBeNull();
    }

    it('signs the user out on any 401 of a signed-in call', async () => {
      await signIn();
      await expect(http.get('/api/user/profile', CurrentUser)).rejects.toMatchObject({
        status: 401,
      });
      expect(useAuthStore.getState().user).toBeNull();
    });

    it('keeps the user when a 401 is about the request (a wrong current password)', async () => {
      await signIn();
      await expect(http.post('/api/user/change-password', {})).rejects.toMatchObject({
        code: 'INVALID_PASSWORD',
      });
      expect(useAuthStore.getState().user).toMatchObject({ username: 'ann' });
    });
  });

  it('asks again who is signed in after a 403, so a demoted admin loses the badge', async () => {
    let role = 'admin';
    stubApi({
      'GET /api/auth/current-user': () =>
        jsonResponse({ user: { id: '1', username: 'ann', role } }),
      'GET /api/users': () => apiError(403, 'You do not have permission to do that', 'FORBIDDEN'),
    });
    await useAuthStore.getState().init();
    expect(useAuthStore.getState().user?.role).toBe('admin');
    role = 'user';
    await expect(http.get('/api/users', CurrentUser)).rejects.toMatchObject({ status: 403 });
    await vi.waitFor(() => expect(useAuthStore.getState().user?.role).toBe('user'));
  });
});
