import { describe, expect, it } from 'vitest';

import { API_ERRORS, httpStatusCode, isApiErrorCode } from './errors.js';
import { BUILD_REFUSAL_CODES } from './game-host.js';
import { MEDIA_ERROR_CODES } from './media.js';
import { TWO_FACTOR_ERROR_CODES } from './two-factor.js';

describe('the error catalogue', () => {
  it('gives every code an error status and a message', () => {
    for (const [code, { status, message }] of Object.entries(API_ERRORS)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
      expect(message.length).toBeGreaterThan(0);
    }
  });

  it('holds the codes the areas list', () => {
    const listed = [
      ...BUILD_REFUSAL_CODES,
      ...MEDIA_ERROR_CODES,
      ...Object.values(TWO_FACTOR_ERROR_CODES),
    ];
    expect(listed.filter((code) => !isApiErrorCode(code))).toEqual([]);
    expect(isApiErrorCode('toString')).toBe(false);
  });

  it('names HTTP statuses as Node spells their reasons', () => {
    expect(httpStatusCode(415)).toBe('UNSUPPORTED_MEDIA_TYPE');
    expect(httpStatusCode(416)).toBe('RANGE_NOT_SATISFIABLE');
    expect(httpStatusCode(431)).toBe('REQUEST_HEADER_FIELDS_TOO_LARGE');
    expect(httpStatusCode(499)).toBeUndefined();
  });

  it('keeps the statuses clients rely on', () => {
    expect(API_ERRORS.INVALID_PASSWORD.status).toBe(401);
    expect(API_ERRORS.TWO_FACTOR_WRONG_PASSWORD.status).toBe(400);
    expect(API_ERRORS.INVALID_TWO_FACTOR_CODE.status).toBe(401);
    expect(API_ERRORS.TWO_FACTOR_WRONG_CODE.status).toBe(400);
    expect(API_ERRORS.GAME_NOT_FOUND.status).toBe(404);
  });
});
