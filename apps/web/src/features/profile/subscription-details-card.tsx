import type { ReactNode } from 'react';

import { formatDate } from '../../lib/format';
import { SubscriptionStatusBadge } from '../../ui/subscription-status-badge';

interface SubscriptionDetailsCardProps {
  status: string | null;
  startDate: string | null;
  endDate: string | null;
  /** Actions under the details (for example a button to manage the subscription). */
  children?: ReactNode;
}

/** Subscription Details: status badge, start date and 'Next Payment Date/End Date'. */
export function SubscriptionDetailsCard({
  status,
  startDate,
  endDate,
  children,
}: SubscriptionDetailsCardProps) {
  return (
    <section className="card profile-card" aria-labelledby="subscription-title">
      <h2 id="subscription-title">Subscription Details</h2>
      <dl className="details">
        <dt>Status</dt>
        <dd>
          <SubscriptionStatusBadge status={status} />
        </dd>
        <dt>Start Date</dt>
        <dd>{formatDate(startDate)}</dd>
        <dt>Next Payment Date/End Date</dt>
        <dd>{formatDate(endDate)}</dd>
      </dl>
      {children ? <div className="profile-card__actions">{children}</div> : null}
    </section>
  );
}
