import type { CurrentUser, DeviceInfo, RegisterRequest } from '@portfolio/types';
import { CurrentUserResponseGuard } from '@portfolio/types/client';
import { create } from 'zustand';

import { http, isSessionEnded, onForbidden, onSessionEnded } from '../../lib/http';
import { toAuthError } from './auth-error';

/**
 * The login and register answers' schemas are classic zod: loaded with the first login or
 * registration (those pages load them anyway), never with the home page.
 */
const loadAuthSchemas = () => import('@portfolio/types');

/** What the password step of a login came to. */
export type LoginResult =
  | { kind: 'signed-in'; user: CurrentUser }
  /** The account has two-factor sign-in: the code goes with this challenge to loginWithCode. */
  | { kind: 'code-required'; challenge: string };

interface AuthState {
  user: CurrentUser | null;
  /**
   * ADMIN_REQUIRE_2FA: this admin must set up two-factor sign-in (on /profile) before anything
   * else; the server refuses their other calls meanwhile.
   */
  isTwoFactorSetupRequired: boolean;
  /** True until the first current-user call has finished. */
  isLoading: boolean;
  /** The server ended the session (account deleted, expired, signed out elsewhere): the login
   * page says so. Cleared by the next sign-in. */
  hasSessionEnded: boolean;
  /** Loads the signed-in user; a failure is only logged and the app continues as a guest. */
  init: () => Promise<void>;
  /** Signs in, or asks for the second factor; rejects with an AuthError. */
  login: (username: string, password: string, deviceInfo: DeviceInfo) => Promise<LoginResult>;
  /** The code step of a login (a TOTP or recovery code); rejects with an AuthError. */
  loginWithCode: (challenge: string, code: string) => Promise<CurrentUser>;
  /** Creates an account (the user signs in afterwards); rejects with an AuthError. */
  register: (input: RegisterRequest) => Promise<void>;
  /** Signs out; a failure is only logged and the user stays signed in. */
  logout: () => Promise<void>;
}

export const useAuthStore = create<AuthState>()((set) => ({
  user: null,
  isTwoFactorSetupRequired: false,
  isLoading: true,
  hasSessionEnded: false,

  init: async () => {
    set({ isLoading: true });
    try {
      // a guest is { user: null }, not an error
      const { user, twoFactorSetupRequired } = await http.get(
        '/api/auth/current-user',
        CurrentUserResponseGuard,
      );
      set({ user, isTwoFactorSetupRequired: twoFactorSetupRequired === true, isLoading: false });
    } catch (error) {
      console.warn('Could not load the current user', toAuthError(error));
      set({ user: null, isLoading: false });
    }
  },

  login: async (username, password, deviceInfo) => {
    try {
      const { LoginResponse } = await loadAuthSchemas();
      const answer = await http.post(
        '/api/auth/login',
        { username, password, deviceInfo },
        LoginResponse,
      );
      if ('challenge' in answer) {
        return { kind: 'code-required', challenge: answer.challenge };
      }
      set({
        user: answer.user,
        isTwoFactorSetupRequired: answer.twoFactorSetupRequired === true,
        hasSessionEnded: false,
      });
      return { kind: 'signed-in', user: answer.user };
    } catch (error) {
      throw toAuthError(error);
    }
  },

  loginWithCode: async (challenge, code) => {
    try {
      const { LoginSuccess } = await loadAuthSchemas();
      const { user } = await http.post('/api/auth/login/2fa', { challenge, code }, LoginSuccess);
      set({ user, isTwoFactorSetupRequired: false, hasSessionEnded: false });
      return user;
    } catch (error) {
      throw toAuthError(error);
    }
  },

  register: async (input) => {
    try {
      const { RegisterResponse } = await loadAuthSchemas();
      await http.post('/api/auth/register', input, RegisterResponse);
    } catch (error) {
      throw toAuthError(error);
    }
  },

  logout: async () => {
    try {
      await http.post('/api/auth/logout');
      set({ user: null, isTwoFactorSetupRequired: false });
    } catch (error) {
      console.warn('Logout failed', toAuthError(error));
    }
  },
}));

/**
 * Any answer saying the session has ended (deleted, expired, signed out in another tab) signs the
 * user out here too: the top bar shows Guest, heartbeats go anonymous and guarded pages send the
 * visitor to the login page.
 */
onSessionEnded(() => {
  if (useAuthStore.getState().user) {
    useAuthStore.setState({ user: null, isTwoFactorSetupRequired: false, hasSessionEnded: true });
  }
});

let refreshing: Promise<void> | null = null;

/**
 * A 403 may mean the user's role changed on the server (an admin demoted): ask again who is
 * signed in, so the top bar and the route guards follow. One question at a time.
 */
onForbidden(() => {
  if (!useAuthStore.getState().user || refreshing) {
    return;
  }
  refreshing = http
    .get('/api/auth/current-user', CurrentUserResponseGuard)
    .then(
      ({ user, twoFactorSetupRequired }) => {
        if (useAuthStore.getState().user) {
          useAuthStore.setState({
            user,
            isTwoFactorSetupRequired: twoFactorSetupRequired === true,
          });
        }
      },
      (error: unknown) => {
        // an ended session was already handled by onSessionEnded
        if (!isSessionEnded(error)) {
          console.warn('Could not reload the current user', error);
        }
      },
    )
    .finally(() => {
      refreshing = null;
    });
});

let initPromise: Promise<void> | null = null;

/** Runs the first current-user call once; later calls wait for the same one. */
export function ensureAuthLoaded(): Promise<void> {
  initPromise ??= useAuthStore.getState().init();
  return initPromise;
}

/** Test helper: back to the state of a fresh page load. */
export function resetAuthStore(): void {
  initPromise = null;
  useAuthStore.setState({ user: null, isTwoFactorSetupRequired: false, isLoading: true });
}
