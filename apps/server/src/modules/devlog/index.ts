// What other modules may use of this one (they import nothing else from its folder).
export { postPath } from './feed.js';
export type { DevlogService } from './service.js';
