import express, { type ErrorRequestHandler, type RequestHandler, Router } from 'express';

import {
  RUN_CODE_MAX_SOURCE_BYTES,
  RUN_CODE_MAX_STDIN_BYTES,
  RunCodeRequest,
  type RunCodeInfo,
  type RunCodeResponse,
} from '@portfolio/types';

import { rateLimitAddress } from '../../lib/client-address.js';
import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../../lib/rate-limit.js';
import { sameOriginGuard } from '../../lib/security.js';
import { parseInput } from '../../lib/validate.js';
import { RUN_CODE_BODY_LIMIT_BYTES, sourceTooLarge, stdinTooLarge } from './limits.js';
import type { CodeRunner } from './runner.js';

/** A body over the parser's limit carries a source or input over its limit: say so. */
const explainTooLarge: ErrorRequestHandler = (error: unknown, _req, _res, next) => {
  const isTooLarge =
    typeof error === 'object' &&
    error !== null &&
    'type' in error &&
    error.type === 'entity.too.large';
  next(isTooLarge ? sourceTooLarge() : error);
};

/** The JSON parser for bodies that carry a source and its input (run and share). */
export function codeBodyParser(): Array<RequestHandler | ErrorRequestHandler> {
  return [express.json({ limit: RUN_CODE_BODY_LIMIT_BYTES }), explainTooLarge];
}

/** Checks the sizes the schema cannot (bytes of UTF-8): 413 like the source. */
export function checkCodeSizes(content: { code: string; stdin: string }): void {
  if (Buffer.byteLength(content.code, 'utf8') > RUN_CODE_MAX_SOURCE_BYTES) {
    throw sourceTooLarge();
  }
  if (Buffer.byteLength(content.stdin, 'utf8') > RUN_CODE_MAX_STDIN_BYTES) {
    throw stdinTooLarge();
  }
}

/**
 * `POST /run-code`: same-origin JSON → session (for the per-user limits) → per-address limit →
 * validate → the runner's fair queue.
 */
export function createRunCodeRouter(deps: {
  runner: CodeRunner;
  rateLimiter: RateLimiter;
  limit: RateLimitRule;
  allowedOrigins: readonly string[];
  resolveSession: RequestHandler;
}): Router {
  const { runner, rateLimiter, limit } = deps;
  const router = Router();
  router.use(sameOriginGuard(deps.allowedOrigins));
  router.use(codeBodyParser());

  router.post('/', deps.resolveSession, async (req, res) => {
    const address = rateLimitAddress(req.ip);
    await enforceRateLimit(
      rateLimiter,
      `run-code:ip:${address}`,
      limit,
      'You are running code too often. Please wait a little and try again.',
    );
    const job = parseInput(RunCodeRequest, req.body);
    checkCodeSizes(job);
    const result = await runner.run(job, { address, userId: req.auth?.user.id });
    res.set('Cache-Control', 'no-store').json(result satisfies RunCodeResponse);
  });

  return router;
}

/** `GET /api/run-code/info`: which backend runs and why, the compiler, the limits and choices. */
export function createRunCodeInfoRouter(deps: { runner: CodeRunner }): Router {
  const router = Router();
  router.get('/run-code/info', async (_req, res) => {
    const info = await deps.runner.info();
    res.set('Cache-Control', 'no-store').json(info satisfies RunCodeInfo);
  });
  return router;
}
