// What other features may use of this one (they import nothing else from its folder).
export { getLeaderboard } from './games-api';
export { playPath } from './isolation';
