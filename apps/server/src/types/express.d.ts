import type { CurrentUser } from '@portfolio/types';

declare module 'express-serve-static-core' {
  interface Request {
    /** Set by the session middleware when the request carries a valid session cookie. */
    auth?: { user: CurrentUser; hasTwoFactor: boolean; sessionIdHash: string; token: string };
  }
}
