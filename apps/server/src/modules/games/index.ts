// What other modules may use of this one (they import nothing else from its folder).
export type { SdkGame } from './routes.js';
