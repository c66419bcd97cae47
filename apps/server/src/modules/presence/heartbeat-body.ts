import {
  AnonymousHeartbeatRequest,
  CURRENT_PAGE_PATTERN,
  HeartbeatRequest,
  PAGE_LOAD_ID_PATTERN,
} from '@portfolio/types';
import { VISITOR_ID_PATTERN } from '@portfolio/types/client';

import { badRequest, describeZodError } from '../../lib/errors.js';

/** The most a page path or a game id may hold (CurrentPage's and the game field's max). */
const MAX_PAGE_LENGTH = 512;
const MAX_GAME_LENGTH = 64;

/**
 * Whether a parsed body is an every-30-s heartbeat that the contract accepts as it is: a plain
 * object of `currentPage` and, optionally, `visitorId`, `tab` and `game`, each valid. Such a body
 * is exactly what zod would return (no other key to strip, nothing to transform). Anything else
 * (a page view, a leave, an unknown key, an invalid value) is left to zod, for its answer and
 * its error message.
 */
function isPlainHeartbeat(json: unknown): json is HeartbeatRequest {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return false;
  }
  let hasPage = false;
  for (const key in json) {
    const value: unknown = (json as Record<string, unknown>)[key];
    if (typeof value !== 'string') {
      return false;
    }
    if (key === 'currentPage') {
      if (value.length > MAX_PAGE_LENGTH || !CURRENT_PAGE_PATTERN.test(value)) {
        return false;
      }
      hasPage = true;
    } else if (key === 'visitorId') {
      if (!VISITOR_ID_PATTERN.test(value)) {
        return false;
      }
    } else if (key === 'tab') {
      if (!PAGE_LOAD_ID_PATTERN.test(value)) {
        return false;
      }
    } else if (key !== 'game' || value.length > MAX_GAME_LENGTH) {
      return false;
    }
  }
  return hasPage;
}

/**
 * A heartbeat's body checked against its contract (HeartbeatRequest, or AnonymousHeartbeatRequest
 * on the anonymous path): the answer and the 400s are zod's. The usual body is checked by hand
 * first, which costs a fraction of zod's parse on the busiest path of the site.
 */
export function parseHeartbeatBody(text: string, isUserPath: boolean): HeartbeatRequest {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  if (isPlainHeartbeat(json)) {
    return json;
  }
  const result = (isUserPath ? HeartbeatRequest : AnonymousHeartbeatRequest).safeParse(json);
  if (!result.success) {
    throw badRequest(describeZodError(result.error));
  }
  return result.data;
}
