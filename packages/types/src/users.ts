import { z } from 'zod';

import { CurrentUser, Email, Password, Role } from './auth.js';
import { ChatStatus } from './rooms.js';

/**
 * A user id in a path. Ids are UUIDs; anything else is refused with this message before the
 * database sees it.
 */
export const UserId = z.guid({ error: 'must be a valid user id' });
export type UserId = z.infer<typeof UserId>;

/** The device of a user's last login, as the server read it from the browser's report. */
export const DeviceSummary = z.object({
  type: z.string(),
  os: z.string(),
  browser: z.string(),
  screenWidth: z.number().int().nonnegative(),
  screenHeight: z.number().int().nonnegative(),
});
export type DeviceSummary = z.infer<typeof DeviceSummary>;

/** One game a user played (spec section 3, Game stat), with the catalogue id beside the name. */
export const GameStat = z.object({
  game_id: z.string(),
  game_name: z.string(),
  /** Seconds. */
  playtime: z.number().int().nonnegative(),
  last_played: z.string().nullable(),
  /** Whatever the game saved; free structure, null when it saved nothing. */
  save_data: z.unknown(),
});
export type GameStat = z.infer<typeof GameStat>;

export const Achievement = z.object({
  achievement_name: z.string(),
  game_id: z.string(),
  game_name: z.string(),
  unlocked_at: z.string(),
  /** From the game's achievement catalogue, when it defines this one. */
  points: z.number().int().optional(),
  icon_url: z.string().nullable().optional(),
  description: z.string().optional(),
});
export type Achievement = z.infer<typeof Achievement>;

/**
 * A subscription an admin granted by setting the role to subscriber, kept apart from Stripe's
 * status (a Stripe event does not undo it). Absent or null when there is none.
 */
export const SubscriptionGrant = z.object({
  granted_at: z.string(),
  /** Null for a grant without an end. */
  ends_at: z.string().nullable(),
});
export type SubscriptionGrant = z.infer<typeof SubscriptionGrant>;

/** A row of the admin's user table (spec section 3, User, without the per-game records). */
export const UserSummary = z.object({
  id: z.string(),
  username: z.string(),
  role: Role,
  created_at: z.string(),
  last_login: z.string().nullable(),
  /** Seconds on the site. */
  total_time_spent: z.number().int().nonnegative(),
  subscription_status: z.string().nullable(),
  subscription_end_date: z.string().nullable(),
  subscription_grant: SubscriptionGrant.nullable().optional(),
});
export type UserSummary = z.infer<typeof UserSummary>;

export const AUDIT_ACTIONS = [
  'role-change',
  'delete',
  'grant-end',
  // two-factor sign-in: the user acts on their own account
  '2fa-enable',
  '2fa-disable',
  '2fa-recovery-code',
  // an admin's one-time password reset link for a user without email
  'reset-link',
  // an admin's chat mute or ban (rooms' chat, site-wide)
  'chat-status',
] as const;
export const AuditAction = z.enum(AUDIT_ACTIONS);
export type AuditAction = z.infer<typeof AuditAction>;

/**
 * One audit-log entry: who did what to whom, and when. Usernames are copied into the entry, so an
 * entry still names a user after that user is deleted (their id is then null).
 */
export const AuditEntry = z.object({
  id: z.string(),
  at: z.string(),
  action: AuditAction,
  actor_id: z.string().nullable(),
  /** 'system' when no signed-in admin did it (the admin:create command, ADMIN_USERNAME at start). */
  actor_username: z.string(),
  target_id: z.string().nullable(),
  target_username: z.string(),
  /** The role before a role change or deletion; a grant's end before its change (null: none). */
  old_value: z.string().nullable(),
  /** The role after a role change; null for a deletion; a grant's new end (null: none). */
  new_value: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntry>;

/** GET /api/users/{userId}: the admin's view of one user. */
export const UserDetail = UserSummary.extend({
  device_info: DeviceSummary,
  games: z.array(GameStat),
  achievements: z.array(Achievement),
  /** Audit entries about this user or made by them, newest first. */
  history: z.array(AuditEntry),
  /** Rooms' chat: allowed, muted or banned by an admin (the server always sends it). */
  chat_status: ChatStatus.optional(),
});
export type UserDetail = z.infer<typeof UserDetail>;

export const USER_SORT_FIELDS = [
  'username',
  'role',
  'created_at',
  'last_login',
  'total_time_spent',
] as const;
export const UserSortField = z.enum(USER_SORT_FIELDS);
export type UserSortField = z.infer<typeof UserSortField>;

export const SortOrder = z.enum(['asc', 'desc']);
export type SortOrder = z.infer<typeof SortOrder>;

export const USER_PAGE_SIZE_MAX = 100;
export const USER_PAGE_SIZE_DEFAULT = 50;

/** The header that carries the number of users matching a list query (all pages). */
export const TOTAL_COUNT_HEADER = 'X-Total-Count';

/** Query parameters of GET /api/users; each is optional. */
export const UserListQuery = z.object({
  /** Part of a username, matched case-insensitively. */
  q: z.string().trim().max(64, 'must be at most 64 characters').optional(),
  sort: UserSortField.default('created_at'),
  order: SortOrder.default('desc'),
  page: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(1_000_000, 'is too large')
    .default(1),
  pageSize: z.coerce
    .number({ error: 'must be a whole number' })
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(USER_PAGE_SIZE_MAX, `must be at most ${USER_PAGE_SIZE_MAX}`)
    .default(USER_PAGE_SIZE_DEFAULT),
});
export type UserListQuery = z.infer<typeof UserListQuery>;
/** What a client may send (every field optional). */
export type UserListParams = Partial<UserListQuery>;

export const UserList = z.array(UserSummary);
export type UserList = z.infer<typeof UserList>;

export const UpdateRoleRequest = z.object({
  userId: UserId,
  role: Role,
});
export type UpdateRoleRequest = z.infer<typeof UpdateRoleRequest>;

/**
 * PUT /api/users/{userId}/subscription-grant: when the subscription an admin granted ends (an ISO
 * date and time in the future), or null for no end. The role goes back to user at that time.
 */
export const UpdateGrantRequest = z.object({
  ends_at: z.iso.datetime({ offset: true, error: 'must be a date and time' }).nullable(),
});
export type UpdateGrantRequest = z.infer<typeof UpdateGrantRequest>;

export const UpdateGrantResponse = z.object({
  message: z.string(),
  subscription_grant: SubscriptionGrant,
});
export type UpdateGrantResponse = z.infer<typeof UpdateGrantResponse>;

export const UpdateRoleResponse = z.object({
  message: z.string(),
  user: CurrentUser,
});
export type UpdateRoleResponse = z.infer<typeof UpdateRoleResponse>;

/** GET /api/user/profile (spec section 3, Profile), with the signed-in user's game records. */
export const Profile = z.object({
  username: z.string(),
  email: z.string().nullable(),
  /** Whether the email's confirmation link was followed (only a confirmed address gets mail). */
  email_confirmed: z.boolean().default(false),
  /** Non-essential mail (subscription news) is sent; false after "Stop these emails". */
  subscription_mail: z.boolean().default(true),
  role: Role,
  subscription_status: z.string().nullable(),
  subscription_start_date: z.string().nullable(),
  subscription_end_date: z.string().nullable(),
  subscription_grant: SubscriptionGrant.nullable().optional(),
  total_time_spent: z.number().int().nonnegative(),
  games: z.array(GameStat.omit({ save_data: true })),
  achievements: z.array(Achievement),
});
export type Profile = z.infer<typeof Profile>;

/** POST /api/user/mail-preferences: turns subscription news on or off. */
export const MailPreferencesRequest = z.object({ subscription_mail: z.boolean() });
export type MailPreferencesRequest = z.infer<typeof MailPreferencesRequest>;

export const UpdateEmailRequest = z.object({ email: Email });
export type UpdateEmailRequest = z.infer<typeof UpdateEmailRequest>;

/** The new password follows exactly the rule registration uses (`Password`). */
export const ChangePasswordRequest = z.object({
  currentPassword: z.string().min(1, 'is required').max(256, 'is too long'),
  newPassword: Password,
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;
