import { describe, expect, it } from 'vitest';

import { AnonymousHeartbeatRequest, HeartbeatRequest } from '@portfolio/types';

import { HttpError, badRequest, describeZodError } from '../../lib/errors.js';
import { parseHeartbeatBody } from './heartbeat-body.js';

const visitorId = 'body_visitor_0123456789';

/** What the contract alone answers: the parsed body, or the 400's message. */
function byZod(text: string, isUserPath: boolean): unknown {
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    return badRequest('Request body is not valid JSON').message;
  }
  const result = (isUserPath ? HeartbeatRequest : AnonymousHeartbeatRequest).safeParse(json);
  return result.success ? result.data : describeZodError(result.error);
}

function byFastPath(text: string, isUserPath: boolean): unknown {
  try {
    return parseHeartbeatBody(text, isUserPath);
  } catch (error) {
    if (error instanceof HttpError) {
      expect(error.status).toBe(400);
      return error.message;
    }
    throw error;
  }
}

const BODIES: unknown[] = [
  { currentPage: '/' },
  { currentPage: '/games', visitorId },
  { currentPage: '/games', visitorId, tab: 'k3x9', game: 'rocket-game' },
  { currentPage: '/Gallery', extra: 'stripped by the contract' },
  { currentPage: '/games', view: { entry: true, landing: '/games' } },
  { currentPage: '/games', left: { path: '/', seconds: 12 } },
  { currentPage: 'games' },
  { currentPage: `/${'a'.repeat(511)}` },
  { currentPage: `/${'a'.repeat(512)}` },
  { currentPage: '/with space' },
  { currentPage: '/\u202eevil' },
  { currentPage: '/', visitorId: 'short' },
  { currentPage: '/', visitorId: 42 },
  { currentPage: '/', tab: 'UPPER' },
  { currentPage: '/', tab: '' },
  { currentPage: '/', game: 'g'.repeat(64) },
  { currentPage: '/', game: 'g'.repeat(65) },
  { currentPage: '/', game: null },
  { visitorId },
  {},
  [],
  null,
  'a string',
  7,
];

describe('the heartbeat body check agrees with the zod contract', () => {
  for (const isUserPath of [true, false]) {
    const path = isUserPath ? 'signed-in' : 'anonymous';
    it(`answers every body as the contract does (${path})`, () => {
      for (const body of BODIES) {
        const text = JSON.stringify(body);
        expect(byFastPath(text, isUserPath), text).toEqual(byZod(text, isUserPath));
      }
    });
    it(`refuses text that is not JSON, and reads an empty body as {} (${path})`, () => {
      for (const text of ['{', 'not json', '']) {
        expect(byFastPath(text, isUserPath), text).toEqual(byZod(text, isUserPath));
      }
    });
  }
});
