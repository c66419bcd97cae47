/**
 * Who is signed in and the API's error body, in `zod/mini` (light for any web chunk that needs
 * them). The root export re-exports them, so the server and everything else use these schemas;
 * the web app's entry reads the same answers through the zod-free guards of client.ts.
 */
import * as z from 'zod/mini';

import { ROLES } from './client.js';

export { ROLES, SESSION_REQUIRED_CODE, VISITOR_ID_PATTERN } from './client.js';

export const CurrentUser = z.object({
  id: z.string(),
  username: z.string(),
  role: z.enum(ROLES),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

/** GET /api/auth/current-user: the signed-in user, or null for a guest (200 either way). */
export const CurrentUserResponse = z.object({
  user: z.nullable(CurrentUser),
  /**
   * ADMIN_REQUIRE_2FA: this admin has no two-factor sign-in yet, and the session may
   * only set it up (on /profile) until it is on. Absent otherwise.
   */
  twoFactorSetupRequired: z.optional(z.boolean()),
});
export type CurrentUserResponse = z.infer<typeof CurrentUserResponse>;

/** Error body of every non-2xx API answer. */
export const ApiError = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.optional(z.string()),
  }),
});
export type ApiError = z.infer<typeof ApiError>;
