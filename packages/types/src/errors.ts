/**
 * The API's error catalogue: every code a client can receive in `{ error: { code, message } }`,
 * with the one HTTP status it is always answered with and its default message. The server builds
 * every error from a code of this list (`new HttpError('GAME_NOT_FOUND')`), so a code never
 * changes status between routes; clients branch on these codes, never on message texts.
 * No zod: the web app's entry imports it ('@portfolio/types/errors').
 */

interface CatalogueEntry {
  readonly status: number;
  readonly message: string;
}

/** Codes named after the HTTP status they stand for, as answered for errors raised outside our code. */
const HTTP_ERRORS = {
  BAD_REQUEST: { status: 400, message: 'Invalid request' },
  UNAUTHORIZED: { status: 401, message: 'Authentication required' },
  PAYMENT_REQUIRED: { status: 402, message: 'Payment required' },
  FORBIDDEN: { status: 403, message: 'You do not have permission to do that' },
  NOT_FOUND: { status: 404, message: 'Not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'That method is not allowed here.' },
  NOT_ACCEPTABLE: { status: 406, message: 'No acceptable representation.' },
  PROXY_AUTHENTICATION_REQUIRED: { status: 407, message: 'Proxy authentication required.' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request took too long to arrive.' },
  CONFLICT: { status: 409, message: 'That value is already taken' },
  GONE: { status: 410, message: 'This is gone.' },
  LENGTH_REQUIRED: { status: 411, message: 'The request needs a Content-Length.' },
  PRECONDITION_FAILED: { status: 412, message: 'A precondition of the request failed.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body is too large' },
  URI_TOO_LONG: { status: 414, message: 'The address is too long.' },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    message: 'Requests must be sent as JSON (Content-Type: application/json)',
  },
  RANGE_NOT_SATISFIABLE: { status: 416, message: 'The requested range is not available.' },
  EXPECTATION_FAILED: { status: 417, message: 'The expectation cannot be met.' },
  I_M_A_TEAPOT: { status: 418, message: "I'm a teapot" },
  MISDIRECTED_REQUEST: { status: 421, message: 'The request was sent to the wrong server.' },
  UNPROCESSABLE_ENTITY: { status: 422, message: 'The request cannot be processed.' },
  LOCKED: { status: 423, message: 'This is locked.' },
  FAILED_DEPENDENCY: { status: 424, message: 'A request it depends on failed.' },
  TOO_EARLY: { status: 425, message: 'The request came too early.' },
  UPGRADE_REQUIRED: { status: 426, message: 'The request needs another protocol.' },
  PRECONDITION_REQUIRED: { status: 428, message: 'The request needs a precondition.' },
  TOO_MANY_REQUESTS: { status: 429, message: 'Too many requests. Please slow down.' },
  REQUEST_HEADER_FIELDS_TOO_LARGE: { status: 431, message: 'The request headers are too large.' },
  UNAVAILABLE_FOR_LEGAL_REASONS: { status: 451, message: 'Unavailable for legal reasons.' },
  INTERNAL: { status: 500, message: 'Something went wrong on our side. Please try again.' },
  SERVICE_UNAVAILABLE: {
    status: 503,
    message: 'The service is briefly unavailable. Please try again in a moment.',
  },
} as const satisfies Record<string, CatalogueEntry>;

export const API_ERRORS = {
  ...HTTP_ERRORS,
  /** Any rate limit of ours (with Retry-After). */
  RATE_LIMITED: { status: 429, message: 'Too many requests. Please slow down.' },

  // accounts and sign-in
  INVALID_CREDENTIALS: { status: 401, message: 'Invalid username or password' },
  /** The current password given to change the email or the password (profile). */
  INVALID_PASSWORD: { status: 401, message: 'Current password is incorrect' },
  WEAK_PASSWORD: { status: 400, message: 'The password is too weak' },
  INVALID_RESET_LINK: {
    status: 400,
    message: 'This password reset link is invalid or has expired. Please ask for a new one.',
  },
  INVALID_CONFIRM_LINK: {
    status: 400,
    message:
      'This confirmation link is invalid or has expired. Change or save your email on your profile to get a new one.',
  },
  /** A game-host API token that is unknown, deleted, or whose admin is no longer one. */
  INVALID_TOKEN: {
    status: 401,
    message: 'The API token is not valid, was deleted, or its admin is no longer an admin.',
  },

  // two-factor sign-in
  /** A wrong, reused or malformed code at the login's second step. */
  INVALID_TWO_FACTOR_CODE: { status: 401, message: 'Invalid authentication code' },
  /** A wrong code given to turn two-factor sign-in on or off (the session stays signed in). */
  TWO_FACTOR_WRONG_CODE: { status: 400, message: 'Invalid authentication code' },
  /** A wrong current password given to turn two-factor sign-in off. */
  TWO_FACTOR_WRONG_PASSWORD: { status: 400, message: 'Current password is incorrect' },
  TWO_FACTOR_CHALLENGE_EXPIRED: {
    status: 401,
    message: 'Your sign-in has expired. Please log in again.',
  },
  TWO_FACTOR_SETUP_REQUIRED: {
    status: 403,
    message: 'Set up two-factor sign-in on your profile to continue',
  },
  TWO_FACTOR_ALREADY_ENABLED: { status: 409, message: 'Two-factor sign-in is already on' },
  TWO_FACTOR_NOT_ENABLED: { status: 409, message: 'Two-factor sign-in is not on' },

  // mail
  /** An id of GET /api/admin/mail/{id} or its resend that names no message of the outbox. */
  MAIL_NOT_FOUND: { status: 404, message: 'No message with that id' },

  // games, leaderboards, achievements
  /** The one answer for a game id that is unknown or not visible to the caller (resolveGame). */
  GAME_NOT_FOUND: { status: 404, message: 'No game with that id' },
  SCORE_OUT_OF_RANGE: { status: 422, message: 'The score is out of the board’s range.' },
  BANNED_FROM_LEADERBOARD: { status: 403, message: 'You may not post scores on this board.' },
  UNKNOWN_ACHIEVEMENT: { status: 404, message: "No such achievement in this game's catalogue" },
  BAD_IMAGE: { status: 400, message: 'The image is not a PNG, JPEG or WebP image.' },

  // rooms (any game, through the SDK) and their chat
  ROOM_NOT_FOUND: { status: 404, message: 'That room does not exist.' },
  ROOM_FULL: { status: 409, message: 'That room is full.' },
  ROOM_CLOSED: { status: 410, message: 'That room has been closed.' },
  ROOMS_SIGN_IN: { status: 401, message: 'Sign in to play with others.' },
  ROOM_SPECTATOR: { status: 403, message: 'Spectators can watch but not play.' },
  NOT_IN_ROOM: { status: 409, message: 'Join a room first.' },
  ROOM_MESSAGE_TOO_LARGE: { status: 413, message: 'The message is too large.' },
  ROOM_STATE_FULL: { status: 409, message: 'The room holds too many state keys.' },
  CHAT_OFF: { status: 403, message: 'Chat is off for this game.' },
  CHAT_MUTED: { status: 403, message: 'You cannot use chat right now.' },

  // markdown (devlog posts, tutorials): over the size, nesting or render-time limits
  MARKDOWN_TOO_COMPLEX: { status: 422, message: 'The text is too large or too deeply nested.' },

  // build uploads (nothing live changes; an upload over the limit is PAYLOAD_TOO_LARGE)
  NOT_A_ZIP: { status: 400, message: 'The upload is not a zip file.' },
  NO_START_PAGE: { status: 400, message: 'The build has no start page.' },
  UNSAFE_PATH: { status: 400, message: 'The build holds a path outside its folder.' },
  SYMLINK: { status: 400, message: 'The build holds a symbolic link.' },
  BAD_ZIP: {
    status: 400,
    message: 'The zip file is damaged: an entry does not match its checksum.',
  },
  ZIP_BOMB: { status: 400, message: 'The build unpacks to too much.' },
  TOO_MANY_FILES: { status: 400, message: 'The build holds too many files.' },

  // the file storage (a bucket) could not be reached; a publish caught by it changes nothing live
  STORAGE_UNAVAILABLE: {
    status: 503,
    message: 'File storage is briefly unavailable. Please try again in a moment.',
  },

  // media uploads
  MEDIA_TOO_LARGE: { status: 413, message: 'The file is larger than the upload limit.' },
  MEDIA_TYPE_REFUSED: { status: 415, message: 'This file type is not accepted.' },
  MEDIA_NAME_MISMATCH: { status: 400, message: "The file's name does not match its bytes." },
  MEDIA_CORRUPT: { status: 400, message: 'The file is truncated or damaged.' },
  MEDIA_EMPTY: { status: 400, message: 'The file is empty.' },
  MEDIA_TOO_COMPLEX: { status: 400, message: 'The file is too complex to process.' },
  MEDIA_IN_USE: { status: 409, message: 'This file is still used: remove it there first.' },

  // the code runner
  RUNNER_BUSY: {
    status: 429,
    message: 'The code runner is busy with other programs. Please try again in a few seconds.',
  },
  RUN_TIME_BUDGET: {
    status: 429,
    message: 'Your programs have used the code runner for too long. Please try again shortly.',
  },
  COMPILE_TIME_BUDGET: {
    status: 429,
    message: 'Compiling your programs has used too much CPU time. Please try again shortly.',
  },
  RUNS_IN_PROGRESS: {
    status: 429,
    message: 'You already have a program running and one waiting. Please wait for them to finish.',
  },
  RUNNER_UNAVAILABLE: { status: 503, message: 'Running code is not available on this server' },
  RUNNER_FAILED: {
    status: 503,
    message: 'The sandbox could not run this program. Please try again in a moment.',
  },

  // payments
  PAYMENT_DECLINED: { status: 402, message: 'Payment failed' },
  PAYMENT_METHOD_REFUSED: { status: 400, message: 'The payment method was refused.' },
  PAYMENTS_NOT_CONFIGURED: { status: 503, message: 'Payments are not configured' },
  PAYMENT_PROVIDER_UNAVAILABLE: {
    status: 503,
    message: 'The payment provider could not be reached. Please try again in a moment.',
  },
  PAYMENT_PROVIDER_ERROR: {
    status: 502,
    message: 'The payment provider refused the request. Please try again later.',
  },
} as const satisfies Record<string, CatalogueEntry>;

export type ApiErrorCode = keyof typeof API_ERRORS;

/** Whether a code (from an answer's body) is one of the catalogue's. */
export function isApiErrorCode(code: unknown): code is ApiErrorCode {
  return typeof code === 'string' && Object.hasOwn(API_ERRORS, code);
}

/** The catalogue's code named after an HTTP status (`415` → `UNSUPPORTED_MEDIA_TYPE`), if any. */
export function httpStatusCode(status: number): ApiErrorCode | undefined {
  for (const [code, entry] of Object.entries(HTTP_ERRORS)) {
    if (entry.status === status && isApiErrorCode(code)) {
      return code;
    }
  }
  return undefined;
}
