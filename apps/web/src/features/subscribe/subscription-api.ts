import {
  type CreateSubscriptionRequest,
  CreateSubscriptionResponse,
  PaymentsConfig,
  PortalSessionResponse,
  SubscriptionState,
  SubscriptionSyncResponse,
} from '@portfolio/types/subscription';

import { http } from '../../lib/http';

/** The calls of the subscription feature (server: modules/subscription). */
export const subscriptionApi = {
  getPaymentsConfig: (signal?: AbortSignal) =>
    http.get('/api/subscription/config', PaymentsConfig, signal),
  getState: (signal?: AbortSignal) => http.get('/api/subscription', SubscriptionState, signal),
  createSubscription: (input: CreateSubscriptionRequest) =>
    http.post('/api/create-subscription', input, CreateSubscriptionResponse),
  /** Reads the subscription from Stripe again, so the new role shows before the webhook comes. */
  sync: () => http.post('/api/subscription/sync', undefined, SubscriptionSyncResponse),
  createPortalSession: () =>
    http.post('/api/subscription/portal', undefined, PortalSessionResponse),
};

export type SubscriptionApi = typeof subscriptionApi;
