import { describeSubscriptionStatus } from '@portfolio/types/subscription';

/** Said beside the status of a subscription an admin granted. */
export const GRANTED_BY_ADMIN = 'Granted by an admin';
/** The end date of a grant without one. */
export const NO_END_DATE = 'No end date';

/** The subscription status as a coloured badge (spec section 4). */
export function SubscriptionStatusBadge({ status }: { status: string | null }) {
  const { label, tone } = describeSubscriptionStatus(status);
  return <span className={`status-badge status-badge--${tone}`}>{label}</span>;
}

/** The badge, and 'Granted by an admin' beside it when an admin granted the subscription. */
export function SubscriptionStatus({
  status,
  isGrantedByAdmin,
}: {
  status: string | null;
  isGrantedByAdmin: boolean;
}) {
  return (
    <>
      <SubscriptionStatusBadge status={status} />
      {isGrantedByAdmin ? <span className="subscription-source">{GRANTED_BY_ADMIN}</span> : null}
    </>
  );
}
