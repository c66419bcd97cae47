import { z } from 'zod';

import { ROLES } from './client.js';
import { CurrentUser } from './session.js';

export {
  ApiError,
  CurrentUser,
  CurrentUserResponse,
  ROLES,
  SESSION_REQUIRED_CODE,
  VISITOR_ID_PATTERN,
} from './session.js';

export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** Shared username rule: what the server stores and the register form checks. */
export const Username = z
  .string()
  .trim()
  .min(3, 'must be at least 3 characters')
  .max(32, 'must be at most 32 characters')
  .regex(/^[A-Za-z0-9_.-]+$/, 'may contain only letters, digits, dot, dash and underscore');

export const Password = z
  .string()
  .min(8, 'must be at least 8 characters')
  .max(256, 'must be at most 256 characters');

/**
 * Text that can be stored and shown as it is: no control characters (\p{Cc}: NUL, which
 * PostgreSQL refuses, escapes, line breaks) and no lone surrogates (\p{Cs} under the u flag, which
 * PostgreSQL's jsonb refuses). A surrogate pair, as in an emoji, is one code point and passes.
 */
export const STORABLE_TEXT_PATTERN = /^[^\p{Cc}\p{Cs}]*$/u;
export const STORABLE_TEXT_MESSAGE = 'must not contain control characters or invalid Unicode';

/** A free-form string that is stored as sent. */
const storableText = () => z.string().regex(STORABLE_TEXT_PATTERN, STORABLE_TEXT_MESSAGE);

/**
 * Email as the spec's update-email rule checks it: something@something.something, with no spaces,
 * control characters or lone surrogates; and a bare address only, the one rule everywhere an
 * address is taken: no angle brackets, quotes, parentheses, commas, semicolons, colons, square
 * brackets or backslashes, and no MIME encoded word ("=?utf-8?b?...?="). A mailer reads those as
 * a display name, a comment, a list or an encoded name, and would send to another address than
 * the one stored ("victim.example.com<evil@attacker.test>").
 */
export const EMAIL_PATTERN =
  /^(?!.*=\?)[^\s@\p{Cc}\p{Cs}<>()[\]\\,;:"]+@[^\s@\p{Cc}\p{Cs}<>()[\]\\,;:"]+\.[^\s@\p{Cc}\p{Cs}<>()[\]\\,;:"]+$/u;
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address';
export const Email = z
  .string()
  .trim()
  .max(254, 'must be at most 254 characters')
  .regex(EMAIL_PATTERN, INVALID_EMAIL_MESSAGE);

/**
 * Validation messages worded by the spec as whole sentences: shown as they are, never prefixed
 * with the field's name the way 'must be at least 3 characters' is.
 */
export const USERNAME_REQUIRED_MESSAGE = 'Please enter your username';
export const PASSWORD_REQUIRED_MESSAGE = 'Please enter your password';
export const WHOLE_MESSAGES: ReadonlySet<string> = new Set([
  INVALID_EMAIL_MESSAGE,
  USERNAME_REQUIRED_MESSAGE,
  PASSWORD_REQUIRED_MESSAGE,
]);

/** What the browser reports at login; stored with the user for the admin to read. */
export const DeviceInfo = z.object({
  screenResolution: storableText().max(32).optional(),
  timezone: storableText().max(64).optional(),
  language: storableText().max(35).optional(),
  userAgent: storableText().max(512).optional(),
});
export type DeviceInfo = z.infer<typeof DeviceInfo>;

/**
 * The username is only required here: a name outside the `Username` rule cannot belong to an
 * account, and the server answers it like wrong credentials rather than explaining the rule.
 */
export const LoginRequest = z.object({
  username: z.string().trim().min(1, USERNAME_REQUIRED_MESSAGE).max(64, 'is too long'),
  password: z.string().min(1, PASSWORD_REQUIRED_MESSAGE).max(256, 'is too long'),
  deviceInfo: DeviceInfo.optional(),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

/** The password was right and a session exists. */
export const LoginSuccess = z.object({
  message: z.string(),
  user: CurrentUser,
  /** ADMIN_REQUIRE_2FA: this admin must set up two-factor sign-in before anything else. */
  twoFactorSetupRequired: z.boolean().optional(),
});
export type LoginSuccess = z.infer<typeof LoginSuccess>;

/**
 * The password was right but the account has two-factor sign-in: no session yet. The challenge
 * goes to POST /api/auth/login/2fa with a code (short-lived, single use, bound to the user).
 */
export const LoginTwoFactorChallenge = z.object({
  message: z.string(),
  twoFactorRequired: z.literal(true),
  challenge: z.string(),
});
export type LoginTwoFactorChallenge = z.infer<typeof LoginTwoFactorChallenge>;

/** POST /api/auth/login answers 200 with either shape. */
export const LoginResponse = z.union([LoginSuccess, LoginTwoFactorChallenge]);
export type LoginResponse = z.infer<typeof LoginResponse>;

export const RegisterRequest = z.object({
  username: Username,
  email: z.union([Email, z.literal('')]).optional(),
  password: Password,
});
export type RegisterRequest = z.infer<typeof RegisterRequest>;

export const RegisterResponse = z.object({ message: z.string(), user: CurrentUser });
export type RegisterResponse = z.infer<typeof RegisterResponse>;

export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;
