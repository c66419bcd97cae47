// What other modules may use of this one (they import nothing else from its folder).
export type { EmailTokens } from './email-tokens.js';
export { assertAcceptablePassword } from './password-policy.js';
export { hashPassword, verifyPassword } from './passwords.js';
export { toCurrentUser } from './service.js';
export {
  createSessionCookies,
  resolveSessionCookie,
  resolveSessionCookieNow,
  type SessionCookies,
} from './session-middleware.js';
export type { CookieSession } from './session-middleware.js';
export type { ResolvedSession, SessionService } from './session-service.js';
