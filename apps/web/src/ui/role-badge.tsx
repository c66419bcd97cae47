import type { Role } from '@portfolio/types';

const BADGE_TEXT: Record<Role, string | null> = { admin: 'Admin', subscriber: 'Sub', user: null };

/** The Admin or Sub badge (spec section 6); a plain user has none. */
export function RoleBadge({ role }: { role: Role }) {
  const text = BADGE_TEXT[role];
  if (text === null) {
    return null;
  }
  return <span className={`badge badge--${role}`}>{text}</span>;
}
