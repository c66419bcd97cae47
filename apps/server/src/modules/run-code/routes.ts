import express, { type ErrorRequestHandler, Router } from 'express';

import { RUN_CODE_MAX_SOURCE_BYTES, RunCodeRequest, type RunCodeResponse } from '@portfolio/types';

import { rateLimitAddress } from '../../lib/client-address.js';
import { HttpError } from '../../lib/errors.js';
import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../../lib/rate-limit.js';
import { sameOriginGuard } from '../../lib/security.js';
import { parseInput } from '../../lib/validate.js';
import type { CodeRunner } from './runner.js';

/**
 * JSON escaping can make a 64 KB source up to six times longer (`\u0001`), so the body may be
 * larger than the source; the source's own size is checked after parsing.
 */
const BODY_LIMIT_BYTES = RUN_CODE_MAX_SOURCE_BYTES * 6 + 1024;

const sourceTooLarge = () =>
  new HttpError(
    413,
    'PAYLOAD_TOO_LARGE',
    `The source code is too large: the limit is ${RUN_CODE_MAX_SOURCE_BYTES / 1024} KB.`,
  );

/** A body over the parser's limit is a source over the limit: say so in the same words. */
const explainTooLarge: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
  const isTooLarge =
    typeof error === 'object' &&
    error !== null &&
    'type' in error &&
    error.type === 'entity.too.large';
  next(isTooLarge ? sourceTooLarge() : error);
};

/** `POST /run-code`: same-origin JSON → per-address limit → validate → the runner's queue. */
export function createRunCodeRouter(deps: {
  runner: CodeRunner;
  rateLimiter: RateLimiter;
  limit: RateLimitRule;
  allowedOrigins: readonly string[];
}): Router {
  const { runner, rateLimiter, limit } = deps;
  const router = Router();
  router.use(sameOriginGuard(deps.allowedOrigins));
  router.use(express.json({ limit: BODY_LIMIT_BYTES }));
  router.use(explainTooLarge);

  router.post('/', async (req, res) => {
    await enforceRateLimit(
      rateLimiter,
      `run-code:ip:${rateLimitAddress(req.ip)}`,
      limit,
      'You are running code too often. Please wait a little and try again.',
    );
    const { code } = parseInput(RunCodeRequest, req.body);
    if (Buffer.byteLength(code, 'utf8') > RUN_CODE_MAX_SOURCE_BYTES) {
      throw sourceTooLarge();
    }
    const result = await runner.run(code);
    res.set('Cache-Control', 'no-store').json(result satisfies RunCodeResponse);
  });

  return router;
}
