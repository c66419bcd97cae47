import { z } from 'zod';

export const ROLES = ['user', 'subscriber', 'admin'] as const;
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

/** Email as the spec's update-email rule checks it: something@something.something, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
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
export const WHOLE_MESSAGES: ReadonlySet<string> = new Set([INVALID_EMAIL_MESSAGE]);

export const CurrentUser = z.object({
  id: z.string(),
  username: z.string(),
  role: Role,
});
export type CurrentUser = z.infer<typeof CurrentUser>;

export const DeviceInfo = z.object({
  screenResolution: z.string().max(32).optional(),
  timezone: z.string().max(64).optional(),
  language: z.string().max(35).optional(),
  userAgent: z.string().max(512).optional(),
});
export type DeviceInfo = z.infer<typeof DeviceInfo>;

export const LoginRequest = z.object({
  username: z.string().trim().min(1, 'is required').max(64, 'is too long'),
  password: z.string().min(1, 'is required').max(256, 'is too long'),
  deviceInfo: DeviceInfo.optional(),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const LoginResponse = z.object({ message: z.string(), user: CurrentUser });
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

/** Error body of every non-2xx API answer. */
export const ApiError = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.string().optional(),
  }),
});
export type ApiError = z.infer<typeof ApiError>;
