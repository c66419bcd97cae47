import type { CurrentUser } from '@portfolio/types';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the session middleware when the request carries a valid session cookie. */
    auth?: {
      /** Who is signed in, with the rights they have now (a pending 2FA setup is a user's). */
      user: CurrentUser;
      hasTwoFactor: boolean;
      /** ADMIN_REQUIRE_2FA: an admin without 2FA yet (`user.role` is then 'user'). */
      twoFactorSetupPending: boolean;
      sessionIdHash: string;
      token: string;
    };
  }
}
