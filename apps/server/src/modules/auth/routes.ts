import { Router, type Request, type Response } from 'express';
import { Passport } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';

import {
  type CurrentUser,
  LoginRequest,
  type LoginResponse,
  type MessageResponse,
  RegisterRequest,
  type RegisterResponse,
} from '@portfolio/types';

import { HttpError, tooManyRequests, unauthorized } from '../../lib/errors.js';
import type { RateLimiter, RateLimitRule } from '../../lib/rate-limit.js';
import { parseInput } from '../../lib/validate.js';
import type { AuthService } from './service.js';
import { clearSessionCookie, setSessionCookie } from './session-middleware.js';
import type { SessionService } from './session-service.js';

export interface AuthRateLimits {
  loginPerIp: RateLimitRule;
  loginPerUsername: RateLimitRule;
  registerPerIp: RateLimitRule;
}

export const DEFAULT_AUTH_RATE_LIMITS: AuthRateLimits = {
  loginPerIp: { limit: 30, windowMs: 5 * 60 * 1000 },
  loginPerUsername: { limit: 10, windowMs: 5 * 60 * 1000 },
  registerPerIp: { limit: 10, windowMs: 60 * 60 * 1000 },
};

const INVALID_CREDENTIALS = 'Invalid username or password';

export function createAuthRouter(deps: {
  auth: AuthService;
  sessions: SessionService;
  rateLimiter: RateLimiter;
  limits: AuthRateLimits;
}): Router {
  const { auth, sessions, rateLimiter, limits } = deps;
  const router = Router();

  // passport-local checks the credentials; sessions are ours (see session-service.ts)
  const passport = new Passport();
  passport.use(
    new LocalStrategy((username, password, done) => {
      auth.verifyCredentials(username, password).then(
        (user) => done(null, user ?? false),
        (error: unknown) => done(error),
      );
    }),
  );
  const authenticate = (req: Request, res: Response) =>
    new Promise<CurrentUser | null>((resolve, reject) => {
      const handler = passport.authenticate(
        'local',
        { session: false },
        (error: unknown, user: CurrentUser | false) => {
          if (error) {
            reject(
              error instanceof Error ? error : new Error('Authentication failed', { cause: error }),
            );
            return;
          }
          resolve(user || null);
        },
      ) as (req: Request, res: Response, next: (error?: unknown) => void) => void;
      handler(req, res, reject);
    });

  async function limit(key: string, rule: RateLimitRule, message: string) {
    const result = await rateLimiter.consume(key, rule);
    if (!result.allowed) {
      throw tooManyRequests(message, result.retryAfterSeconds);
    }
  }

  // answers name who is signed in: no browser or proxy may keep a copy
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.get('/current-user', (req, res) => {
    if (!req.auth) {
      throw unauthorized('Not logged in');
    }
    res.json(req.auth.user satisfies CurrentUser);
  });

  router.post('/register', async (req, res) => {
    await limit(
      `register:ip:${req.ip}`,
      limits.registerPerIp,
      'Too many registrations from this address. Please try again later.',
    );
    const input = parseInput(RegisterRequest, req.body);
    const user = await auth.register(input);
    res.status(201).json({ message: 'Registration successful', user } satisfies RegisterResponse);
  });

  router.post('/login', async (req, res) => {
    await limit(
      `login:ip:${req.ip}`,
      limits.loginPerIp,
      'Too many login attempts. Please try again later.',
    );
    const input = parseInput(LoginRequest, req.body);
    await limit(
      `login:user:${input.username.toLowerCase()}`,
      limits.loginPerUsername,
      'Too many login attempts. Please try again later.',
    );
    req.body = input;
    const user = await authenticate(req, res);
    if (!user) {
      throw new HttpError(401, 'INVALID_CREDENTIALS', INVALID_CREDENTIALS);
    }
    // a fresh session id on every login; the old one (if any) is gone
    if (req.auth) {
      await sessions.destroy(req.auth.token);
    }
    const session = await sessions.create(user.id);
    await auth.recordLogin(user.id, input.deviceInfo, req.get('user-agent'));
    setSessionCookie(req, res, session.token, session.expiresAt);
    res.json({ message: 'Login successful', user } satisfies LoginResponse);
  });

  router.post('/logout', async (req, res) => {
    if (req.auth) {
      await sessions.destroy(req.auth.token);
      auth.recordLogout(req.auth.user.id);
    }
    clearSessionCookie(req, res);
    res.json({ message: 'Logged out' } satisfies MessageResponse);
  });

  return router;
}
