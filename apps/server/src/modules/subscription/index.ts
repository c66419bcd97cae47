// What other modules may use of this one (they import nothing else from its folder).
export type { SubscriptionNotice } from './service.js';
export { isGrantActive } from './subscription-state.js';
