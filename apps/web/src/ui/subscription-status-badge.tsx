import { describeSubscriptionStatus } from '@portfolio/types/subscription';

/** The subscription status as a coloured badge (spec section 4). */
export function SubscriptionStatusBadge({ status }: { status: string | null }) {
  const { label, tone } = describeSubscriptionStatus(status);
  return <span className={`status-badge status-badge--${tone}`}>{label}</span>;
}
