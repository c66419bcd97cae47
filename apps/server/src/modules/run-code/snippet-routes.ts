import { Router } from 'express';

import { ShareSnippetRequest, type Snippet, SnippetId } from '@portfolio/types';

import { rateLimitAddress } from '../../lib/client-address.js';
import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../../lib/rate-limit.js';
import { parseInput } from '../../lib/validate.js';
import { checkCodeSizes } from './routes.js';
import type { SnippetsService } from './snippets.js';

/** Shares per address: a person sharing by hand stays far below; a script filling the table not. */
export const SNIPPET_SHARE_LIMIT: RateLimitRule = { limit: 30, windowMs: 10 * 60_000 };

/**
 * `POST /api/snippets` (same-origin JSON, behind the API's guard) and `GET /api/snippets/:id`.
 * The API's JSON parser takes 100 KB, less than the largest escaped source: app.ts mounts
 * `codeBodyParser()` for /api/snippets ahead of it.
 */
export function createSnippetsRouter(deps: {
  snippets: SnippetsService;
  rateLimiter: RateLimiter;
  limit: RateLimitRule;
}): Router {
  const { snippets, rateLimiter, limit } = deps;
  const router = Router();

  router.post('/snippets', async (req, res) => {
    await enforceRateLimit(
      rateLimiter,
      `snippets:ip:${rateLimitAddress(req.ip)}`,
      limit,
      'You are sharing snippets too often. Please wait a little and try again.',
    );
    const content = parseInput(ShareSnippetRequest, req.body);
    checkCodeSizes(content);
    const { snippet, isNew } = await snippets.share(content);
    res.status(isNew ? 201 : 200).json(snippet satisfies Snippet);
  });

  router.get('/snippets/:id', async (req, res) => {
    const id = parseInput(SnippetId, req.params.id);
    const snippet = await snippets.get(id);
    // content-addressed: an id always names the same snippet
    res.set('Cache-Control', 'public, max-age=86400, immutable').json(snippet satisfies Snippet);
  });

  return router;
}
