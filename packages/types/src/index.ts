export * from './auth.js';
export * from './games.js';
export * from './presence.js';
export * from './users.js';
export * from './run-code.js';
export * from './gallery.js';
export * from './tutorials.js';
export * from './game-sdk.js';
export * from './site.js';
export * from './pages.js';
export * from './mail.js';
export {
  CurrentUserResponseGuard,
  guardedSchema,
  isApiError,
  isCurrentUser,
  isCurrentUserResponse,
} from './client.js';
export * from './two-factor.js';
export * from './errors.js';
