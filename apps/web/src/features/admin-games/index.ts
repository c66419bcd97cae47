// What other features may use of this one (they import nothing else from its folder).
export { listAdminGames } from './admin-games-api';
export { useAdminGamesStore } from './admin-games-store';
export { LiveRoomsSection } from './rooms-admin';
