/**
 * What the web app's entry chunk needs of the contracts, without zod: plain constants and type
 * guards for the answers it reads before the first page renders (who is signed in, the API's
 * error body, the injected site settings). zod, even `zod/mini`, would add 15+ KB gzip to every
 * first visit. The guards are checked against the zod schemas in session.ts (client.test.ts),
 * so the two cannot drift apart. Import from '@portfolio/types/client'.
 */
import type { ApiError, CurrentUser, CurrentUserResponse } from './session.js';

export const ROLES = ['user', 'subscriber', 'admin'] as const;

/**
 * The code of a 401 that means "no valid session": the client then knows its user is signed out.
 * Other 401s (a wrong current password) carry their own code and sign no one out.
 */
export const SESSION_REQUIRED_CODE = 'UNAUTHORIZED';

/** The random id a guest's browser keeps in localStorage and sends with its heartbeats. */
export const VISITOR_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isRole = (value: unknown): value is CurrentUser['role'] =>
  (ROLES as readonly unknown[]).includes(value);

export function isCurrentUser(value: unknown): value is CurrentUser {
  return (
    isObject(value) &&
    typeof value.id === 'string' &&
    typeof value.username === 'string' &&
    isRole(value.role)
  );
}

export function isCurrentUserResponse(value: unknown): value is CurrentUserResponse {
  return (
    isObject(value) &&
    (value.user === null || isCurrentUser(value.user)) &&
    (value.twoFactorSetupRequired === undefined ||
      typeof value.twoFactorSetupRequired === 'boolean')
  );
}

export function isApiError(value: unknown): value is ApiError {
  if (!isObject(value) || !isObject(value.error)) {
    return false;
  }
  const { code, message, details } = value.error;
  return (
    typeof code === 'string' &&
    typeof message === 'string' &&
    (details === undefined || typeof details === 'string')
  );
}

/**
 * A type guard as the `{ parse }` a schema offers (what the web app's HTTP client takes); like a
 * schema's parse, it returns only the fields the contract names.
 */
export function guardedSchema<T>(
  name: string,
  guard: (value: unknown) => value is T,
  pick: (value: T) => T = (value) => value,
): { parse(value: unknown): T } {
  return {
    parse(value) {
      if (!guard(value)) {
        throw new TypeError(`The answer is not a valid ${name}`);
      }
      return pick(value);
    },
  };
}

const pickUser = ({ id, username, role }: CurrentUser): CurrentUser => ({ id, username, role });

/** GET /api/auth/current-user's answer, checked without zod. */
export const CurrentUserResponseGuard = guardedSchema(
  'current user',
  isCurrentUserResponse,
  ({ user, twoFactorSetupRequired }) => ({
    user: user === null ? null : pickUser(user),
    ...(twoFactorSetupRequired === undefined ? {} : { twoFactorSetupRequired }),
  }),
);
