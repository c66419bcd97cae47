/**
 * The contracts the web app needs before its first page renders (who is signed in, the API's
 * error body), written with `zod/mini` so the home page's entry chunk stays small: import them
 * from '@portfolio/types/session' in code the entry loads. The root export re-exports them, so
 * the server and everything else use the same schemas.
 */
import * as z from 'zod/mini';

export const ROLES = ['user', 'subscriber', 'admin'] as const;

export const CurrentUser = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(ROLES),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

/** GET /api/auth/current-user: the signed-in user, or null for a guest (200 either way). */
export const CurrentUserResponse = z.object({ user: z.nullable(CurrentUser) });
export type CurrentUserResponse = z.infer<typeof CurrentUserResponse>;

/**
 * The code of a 401 that means "no valid session": the client then knows its user is signed out.
 * Other 401s (a wrong current password) carry their own code and sign no one out.
 */
export const SESSION_REQUIRED_CODE = 'UNAUTHORIZED';

/** Error body of every non-2xx API answer. */
export const ApiError = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.optional(z.string()),
  }),
});
export type ApiError = z.infer<typeof ApiError>;
