// What other modules may use of this one (they import nothing else from its folder).
export type { GameCatalogue } from './catalogue.js';
export { IMAGE_TYPES, sniffImage } from './images.js';
export type { GameHost } from './service.js';
export type { GameScope, ResolveGame, ResolvedGame } from './resolve-game.js';
