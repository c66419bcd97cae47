// What other modules may use of this one (they import nothing else from its folder).
export type { AnalyticsService } from './dashboard/service.js';
export type { Collector } from './site/collector.js';
