export * from './auth.js';
export * from './games.js';
export * from './presence.js';
export * from './users.js';
export * from './site.js';
export {
  CurrentUserResponseGuard,
  guardedSchema,
  isApiError,
  isCurrentUser,
  isCurrentUserResponse,
} from './client.js';
