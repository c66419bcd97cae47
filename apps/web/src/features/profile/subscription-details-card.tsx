import type { SubscriptionGrant } from '@portfolio/types';
import { viewSubscription } from '@portfolio/types/subscription';
import type { ReactNode } from 'react';

import { formatDate } from '../../lib/format';
import { NO_END_DATE, SubscriptionStatus } from '../../ui/subscription-status-badge';

interface SubscriptionDetailsCardProps {
  status: string | null;
  startDate: string | null;
  endDate: string | null;
  /** A subscription an admin granted, shown as active when Stripe holds none. */
  grant?: SubscriptionGrant | null | undefined;
  /** Actions under the details (for example a button to manage the subscription). */
  children?: ReactNode;
}

/** Subscription Details: status badge, start date and 'Next Payment Date/End Date'. */
export function SubscriptionDetailsCard({
  status,
  startDate,
  endDate,
  grant,
  children,
}: SubscriptionDetailsCardProps) {
  const view = viewSubscription({ status, startDate, endDate, grant });
  return (
    <section className="card profile-card" aria-labelledby="subscription-title">
      <h2 id="subscription-title">Subscription Details</h2>
      <dl className="details">
        <dt>Status</dt>
        <dd>
          <SubscriptionStatus status={view.status} isGrantedByAdmin={view.isGrantedByAdmin} />
        </dd>
        <dt>Start Date</dt>
        <dd>{formatDate(view.startDate)}</dd>
        <dt>Next Payment Date/End Date</dt>
        <dd>{view.isGrantedByAdmin && !view.endDate ? NO_END_DATE : formatDate(view.endDate)}</dd>
      </dl>
      {children ? <div className="profile-card__actions">{children}</div> : null}
    </section>
  );
}
