import type {
  AuditEntry,
  DeviceSummary,
  Profile,
  SubscriptionGrant,
  UserSummary,
} from '@portfolio/types';

import type { StoredDeviceInfo } from '../../db/schema.js';
import { isGrantActive } from '../subscription/index.js';
import type { AuditRow } from '../../access/audit.js';
import type { UserGameRecords } from './game-records.js';
import type { UserRow, UserSummaryRow } from './repo.js';

export const isoOrNull = (date: Date | null): string | null => (date ? date.toISOString() : null);

/** A grant as answers carry it. */
export const grantOf = (grantedAt: Date, endsAt: Date | null): SubscriptionGrant => ({
  granted_at: grantedAt.toISOString(),
  ends_at: isoOrNull(endsAt),
});

/** An admin's grant while it lasts (an ended one is no subscription), else null. */
export function toSubscriptionGrant(
  row: Pick<UserSummaryRow, 'subscriptionGrantedAt' | 'subscriptionGrantEndsAt'>,
  now = new Date(),
): SubscriptionGrant | null {
  const grantedAt = row.subscriptionGrantedAt;
  const endsAt = row.subscriptionGrantEndsAt;
  if (!grantedAt || !isGrantActive({ grantedAt, endsAt }, now)) {
    return null;
  }
  return grantOf(grantedAt, endsAt);
}

/** A users-table row as the admin's table shows it. */
export function toUserSummary(row: UserSummaryRow): UserSummary {
  return {
    id: row.id,
    username: row.username,
    role: row.role,
    created_at: row.createdAt.toISOString(),
    last_login: isoOrNull(row.lastLogin),
    total_time_spent: row.totalTimeSpent,
    subscription_status: row.subscriptionStatus,
    subscription_end_date: isoOrNull(row.subscriptionEndDate),
    subscription_grant: toSubscriptionGrant(row),
  };
}

/** The device of the last login; 'Unknown' and 0 for what was never reported. */
export function toDeviceSummary(info: StoredDeviceInfo | null): DeviceSummary {
  return {
    type: info?.type || 'Unknown',
    os: info?.os || 'Unknown',
    browser: info?.browser || 'Unknown',
    screenWidth: info?.screenWidth ?? 0,
    screenHeight: info?.screenHeight ?? 0,
  };
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    id: String(row.id),
    at: row.at.toISOString(),
    action: row.action,
    actor_id: row.actorId,
    actor_username: row.actorUsername,
    target_id: row.targetId,
    target_username: row.targetUsername,
    old_value: row.oldValue,
    new_value: row.newValue,
  };
}

export function toProfile(row: UserRow, records: UserGameRecords): Profile {
  return {
    username: row.username,
    email: row.email,
    email_confirmed: row.email !== null && row.emailConfirmedAt !== null,
    subscription_mail: !row.mailOptOut,
    role: row.role,
    subscription_status: row.subscriptionStatus,
    subscription_start_date: isoOrNull(row.subscriptionStartDate),
    subscription_end_date: isoOrNull(row.subscriptionEndDate),
    subscription_grant: toSubscriptionGrant(row),
    total_time_spent: row.totalTimeSpent,
    games: records.games.map(({ save_data: _saveData, ...game }) => game),
    achievements: records.achievements,
  };
}
