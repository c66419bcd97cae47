import { Router, type Request, type Response } from 'express';
import { Passport } from 'passport';
import { Strategy as LocalStrategy } from 'passport-local';

import {
  type CurrentUser,
  type CurrentUserResponse,
  type DeviceInfo,
  LoginRequest,
  type LoginResponse,
  LoginTwoFactorRequest,
  type MessageResponse,
  RegisterRequest,
  type RegisterResponse,
  Username,
} from '@portfolio/types';

import { rateLimitAddress } from '../../lib/client-address.js';
import { HttpError } from '../../lib/errors.js';
import { enforceRateLimit, type RateLimiter, type RateLimitRule } from '../../lib/rate-limit.js';
import { parseInput } from '../../lib/validate.js';
import { accountUserOf, isTwoFactorSetupPending } from '../../access/policies.js';
import type { AuthService } from './service.js';
import type { SessionCookies } from './session-middleware.js';
import type { SessionService } from './session-service.js';
import {
  challengeExpired,
  invalidTwoFactorCode,
  type TwoFactorService,
} from './two-factor-service.js';

export interface AuthRateLimits {
  /** Login attempts per client address (an IPv6 /64 counts as one address). */
  loginPerIp: RateLimitRule;
  /**
   * Failed logins per username from browsers that are not a known device of that user; a
   * successful login is given back. Attempts carrying the user's device cookie are counted per
   * device instead (the same rule), so guessing from elsewhere cannot lock the owner out.
   */
  loginPerUsername: RateLimitRule;
  registerPerIp: RateLimitRule;
  /** Registration attempts per username. */
  registerPerUsername: RateLimitRule;
  /**
   * Wrong two-factor codes per user (the login's code step, enabling and disabling). Enabling and
   * disabling are refused past it; the login's code step is not (a right code always signs in),
   * but past it each challenge ends at its first wrong code.
   */
  twoFactorPerUser: RateLimitRule;
}

export const DEFAULT_AUTH_RATE_LIMITS = {
  loginPerIp: { limit: 30, windowMs: 5 * 60 * 1000 },
  loginPerUsername: { limit: 10, windowMs: 5 * 60 * 1000 },
  registerPerIp: { limit: 10, windowMs: 60 * 60 * 1000 },
  registerPerUsername: { limit: 5, windowMs: 60 * 60 * 1000 },
  twoFactorPerUser: { limit: 10, windowMs: 5 * 60 * 1000 },
} satisfies AuthRateLimits;

const invalidCredentials = () =>
  new HttpError('INVALID_CREDENTIALS', 'Invalid username or password');
const LOGIN_LIMIT_MESSAGE = 'Too many login attempts. Please try again later.';

/**
 * Lower-cases A–Z only. Rate-limit keys must agree with how the database compares names; valid
 * usernames are ASCII, and JavaScript's full Unicode lower-casing differs from PostgreSQL's anyway.
 */
const asciiLowerCase = (text: string) => text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());

export interface AuthRouterDeps {
  auth: AuthService;
  sessions: SessionService;
  cookies: SessionCookies;
  rateLimiter: RateLimiter;
  limits: AuthRateLimits;
  twoFactor: TwoFactorService;
  /** ADMIN_REQUIRE_2FA */
  isAdminTwoFactorRequired: boolean;
}

/** Checks a login's credentials with passport-local; sessions are ours (see session-service.ts). */
type Authenticate = (req: Request, res: Response) => Promise<CurrentUser | null>;

/** The routes under /api/auth, one small table per area. */
export function createAuthRouter(deps: AuthRouterDeps): Router {
  const router = Router();
  // answers name who is signed in: no browser or proxy may keep a copy
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  mountCurrentUser(router);
  mountRegister(router, deps);
  mountLogin(router, deps, createAuthenticate(deps.auth));
  mountLogout(router, deps);
  return router;
}

function createAuthenticate(auth: AuthService): Authenticate {
  const passport = new Passport();
  passport.use(
    new LocalStrategy((username, password, done) => {
      auth.verifyCredentials(username, password).then(
        (user) => done(null, user ?? false),
        (error: unknown) => done(error),
      );
    }),
  );
  return (req, res) =>
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
}

const limit = (deps: AuthRouterDeps, key: string, rule: RateLimitRule, message: string) =>
  enforceRateLimit(deps.rateLimiter, key, rule, message);

function mountCurrentUser(router: Router): void {
  // a guest is a normal answer, not an error: 200 with user null (no 401 in the browser console)
  router.get('/current-user', (req, res) => {
    res.json({
      user: req.auth ? accountUserOf(req.auth) : null,
      ...(isTwoFactorSetupPending(req.auth) ? { twoFactorSetupRequired: true } : {}),
    } satisfies CurrentUserResponse);
  });
}

function mountRegister(router: Router, deps: AuthRouterDeps): void {
  const { auth, limits } = deps;
  router.post('/register', async (req, res) => {
    await limit(
      deps,
      `register:ip:${rateLimitAddress(req.ip)}`,
      limits.registerPerIp,
      'Too many registrations from this address. Please try again later.',
    );
    const input = parseInput(RegisterRequest, req.body);
    await limit(
      deps,
      `register:user:${asciiLowerCase(input.username)}`,
      limits.registerPerUsername,
      'Too many registration attempts for this username. Please try again later.',
    );
    const user = await auth.register(input);
    res.status(201).json({ message: 'Registration successful', user } satisfies RegisterResponse);
  });
}

/** The last step of every login: the session, its cookies and the answer. */
async function completeLogin(
  deps: AuthRouterDeps,
  req: Request,
  res: Response,
  user: CurrentUser,
  device: { deviceInfo: DeviceInfo | undefined; userAgent: string | undefined },
): Promise<void> {
  const { auth, sessions, cookies, twoFactor } = deps;
  // before the session exists, so a failure here leaves no session behind
  await auth.recordLogin(user.id, device.deviceInfo, device.userAgent);
  // a fresh session id on every login; the old one (if any) is gone
  if (req.auth) {
    await sessions.destroy(req.auth.token);
  }
  const session = await sessions.create(user.id);
  cookies.set(req, res, session.token, session.expiresAt);
  cookies.setDevice(req, res, sessions.devices.issue(user.username));
  // only users without 2FA get here from the password step, so an admin is then pending setup
  const isSetupRequired = deps.isAdminTwoFactorRequired && user.role === 'admin';
  res.json({
    message: 'Login successful',
    user,
    ...(isSetupRequired && !(await twoFactor.isEnabled(user.id))
      ? { twoFactorSetupRequired: true }
      : {}),
  } satisfies LoginResponse);
}

/** The password step and, for two-factor sign-in, the code step. */
function mountLogin(router: Router, deps: AuthRouterDeps, authenticate: Authenticate): void {
  const { auth, sessions, cookies, rateLimiter, limits, twoFactor } = deps;
  router.post('/login', async (req, res) => {
    await limit(
      deps,
      `login:ip:${rateLimitAddress(req.ip)}`,
      limits.loginPerIp,
      LOGIN_LIMIT_MESSAGE,
    );
    const input = parseInput(LoginRequest, req.body);
    // No account has a name outside the username rule, so there is nothing to look up: such a
    // name is answered like wrong credentials (the rule stays unexplained). This also keeps out
    // names PostgreSQL's lower() folds onto a real one ('İ' → 'i') under a different limit key.
    if (!Username.safeParse(input.username).success) {
      throw invalidCredentials();
    }
    // counted before checking, so parallel guesses cannot all pass; given back on success. A
    // browser with this user's device cookie has its own counter (OWASP's device cookies).
    const deviceId = cookies
      .deviceValues(req)
      .map((value) => sessions.devices.verify(value, input.username))
      .find((id) => id !== undefined);
    const attemptKey = deviceId
      ? `login:device:${deviceId}`
      : `login:user:${asciiLowerCase(input.username)}`;
    await limit(deps, attemptKey, limits.loginPerUsername, LOGIN_LIMIT_MESSAGE);
    req.body = input;
    const user = await authenticate(req, res);
    if (!user) {
      throw invalidCredentials();
    }
    await rateLimiter.refund(attemptKey);
    // two-factor sign-in: the password alone makes no session, only a challenge for the code
    if (await twoFactor.isEnabled(user.id)) {
      const challenge = await twoFactor.createChallenge(
        user.id,
        input.deviceInfo,
        req.get('user-agent'),
      );
      res.json({
        message: 'Enter the code from your authenticator app',
        twoFactorRequired: true,
        challenge,
      } satisfies LoginResponse);
      return;
    }
    await completeLogin(deps, req, res, user, {
      deviceInfo: input.deviceInfo,
      userAgent: req.get('user-agent'),
    });
  });

  router.post('/login/2fa', async (req, res) => {
    // per address: every code counts, so a flood from one place is a 429
    await limit(
      deps,
      `login2fa:ip:${rateLimitAddress(req.ip)}`,
      limits.loginPerIp,
      LOGIN_LIMIT_MESSAGE,
    );
    const input = parseInput(LoginTwoFactorRequest, req.body);
    const pending = await twoFactor.findChallenge(input.challenge);
    if (!pending) {
      throw challengeExpired();
    }
    const user = await auth.findUser(pending.userId);
    // per challenge: a few tries, then it is over
    if (!user || !(await twoFactor.claimAttempt(pending))) {
      throw challengeExpired();
    }
    if (!(await twoFactor.checkLoginCode(user, input.code))) {
      // Per account, across challenges and addresses: wrong codes count, but past the limit they
      // only shorten each challenge to this one guess, so every further guess costs a password
      // step. It never refuses a right code or recovery code: whoever holds the password could
      // otherwise keep the owner from signing in.
      const { allowed } = await rateLimiter.consume(
        `2fa:user:${pending.userId}`,
        limits.twoFactorPerUser,
      );
      if (!allowed) {
        await twoFactor.consumeChallenge(pending);
        throw challengeExpired();
      }
      throw invalidTwoFactorCode();
    }
    if (!(await twoFactor.consumeChallenge(pending))) {
      throw challengeExpired();
    }
    await completeLogin(deps, req, res, user, {
      deviceInfo: pending.deviceInfo ?? undefined,
      userAgent: pending.userAgent ?? undefined,
    });
  });
}

function mountLogout(router: Router, deps: AuthRouterDeps): void {
  const { auth, sessions, cookies } = deps;
  router.post('/logout', async (req, res) => {
    if (req.auth) {
      await sessions.destroy(req.auth.token);
      auth.recordLogout(req.auth.user.id);
    }
    cookies.clear(req, res);
    res.json({ message: 'Logged out' } satisfies MessageResponse);
  });
}
