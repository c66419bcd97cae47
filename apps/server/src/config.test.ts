import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { ConfigError, loadConfig, REPOSITORY_ROOT } from './config.js';

const SECRET = 'a'.repeat(32);
const ORIGIN = 'https://portfolio.example';
/** Games on another registrable domain, as production requires. */
const GAMES = 'https://portfolio-games.example';
const tempDirs: string[] = [];
function tempDir() {
  const dir = mkdtempSync(path.join(tmpdir(), 'config-test-'));
  tempDirs.push(dir);
  return dir;
}
afterEach(() => {
  tempDirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

function configError(env: NodeJS.ProcessEnv): string {
  try {
    loadConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has working defaults', () => {
    const dataDir = tempDir();
    const config = loadConfig({ DATA_DIR: dataDir, SESSION_SECRET: SECRET });
    expect(config).toMatchObject({
      env: 'development',
      // only this machine reaches a development server unless HOST says otherwise
      host: '127.0.0.1',
      port: 3000,
      dataDir,
      databaseUrl: undefined,
      redisUrl: undefined,
      sessionSecret: SECRET,
      publicOrigin: undefined,
      admin: undefined,
      logLevel: 'info',
    });
  });

  it('treats empty variables as unset instead of as values', () => {
    const config = loadConfig({
      PORT: '',
      HOST: '',
      NODE_ENV: '',
      DATA_DIR: '',
      DATABASE_URL: '',
      SESSION_SECRET: SECRET,
      LOG_LEVEL: '',
    });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      env: 'development',
      dataDir: path.join(REPOSITORY_ROOT, 'data'),
      databaseUrl: undefined,
      logLevel: 'info',
    });
  });

  it('names the variable when PORT is not a port', () => {
    expect(configError({ PORT: 'eighty', SESSION_SECRET: SECRET })).toMatch(/^\s+PORT: /m);
    expect(configError({ PORT: '70000', SESSION_SECRET: SECRET })).toMatch(/^\s+PORT: /m);
  });

  it('takes SMTP_URL and MAIL_FROM, refusing what cannot be an SMTP server or a sender', () => {
    const config = loadConfig({
      SESSION_SECRET: SECRET,
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      MAIL_FROM: 'GameDev Portfolio <no-reply@example.com>',
    });
    expect(config.mail).toEqual({
      smtpUrl: 'smtps://user:pass@mail.example.com:465',
      from: 'GameDev Portfolio <no-reply@example.com>',
    });
    expect(loadConfig({ SESSION_SECRET: SECRET, SMTP_URL: '' }).mail.smtpUrl).toBeUndefined();
    expect(configError({ SESSION_SECRET: SECRET, SMTP_URL: 'http://mail.example.com' })).toMatch(
      /^\s+SMTP_URL: /m,
    );
    expect(configError({ SESSION_SECRET: SECRET, MAIL_FROM: 'not an address' })).toMatch(
      /^\s+MAIL_FROM: /m,
    );
  });

  it('takes the analytics segment memory in MB and refuses none', () => {
    const config = loadConfig({ SESSION_SECRET: SECRET, ANALYTICS_SEGMENT_CACHE_MB: '64' });
    expect(config.analyticsSegmentCacheBytes).toBe(64 * 1024 * 1024);
    expect(configError({ SESSION_SECRET: SECRET, ANALYTICS_SEGMENT_CACHE_MB: '0' })).toMatch(
      /^\s+ANALYTICS_SEGMENT_CACHE_MB: /m,
    );
  });

  it('keeps media under DATA_DIR/media by default with 20/200/50 MB limits, and takes its own', () => {
    const dataDir = tempDir();
    const defaults = loadConfig({ SESSION_SECRET: SECRET, DATA_DIR: dataDir });
    expect(defaults.media).toEqual({
      dir: path.join(dataDir, 'media'),
      limits: { image: 20 * 1024 * 1024, video: 200 * 1024 * 1024, audio: 50 * 1024 * 1024 },
    });
    const own = loadConfig({
      SESSION_SECRET: SECRET,
      MEDIA_DIR: path.join(dataDir, 'uploads'),
      MEDIA_MAX_IMAGE_BYTES: '5000000',
      MEDIA_MAX_VIDEO_BYTES: '',
      MEDIA_MAX_AUDIO_BYTES: '9000000',
    });
    expect(own.media.dir).toBe(path.join(dataDir, 'uploads'));
    expect(own.media.limits).toEqual({
      image: 5_000_000,
      video: 200 * 1024 * 1024,
      audio: 9_000_000,
    });
    expect(configError({ SESSION_SECRET: SECRET, MEDIA_MAX_VIDEO_BYTES: 'lots' })).toMatch(
      /^\s+MEDIA_MAX_VIDEO_BYTES: /m,
    );
  });

  it('lists every problem at once', () => {
    const message = configError({ PORT: 'x', DATABASE_URL: 'not a url', SESSION_SECRET: SECRET });
    expect(message).toMatch(/PORT: /);
    expect(message).toMatch(/DATABASE_URL: /);
  });

  it('requires SESSION_SECRET in production', () => {
    expect(configError({ NODE_ENV: 'production', DATA_DIR: tempDir() })).toMatch(
      /SESSION_SECRET: is required when NODE_ENV=production/,
    );
    expect(configError({ NODE_ENV: 'production', SESSION_SECRET: 'too short' })).toMatch(
      /SESSION_SECRET: must be at least 32 characters/,
    );
    expect(
      loadConfig({
        NODE_ENV: 'production',
        SESSION_SECRET: SECRET,
        PUBLIC_ORIGIN: ORIGIN,
        GAMES_ORIGIN: GAMES,
      }).sessionSecret,
    ).toBe(SECRET);
  });

  it('requires PUBLIC_ORIGIN in production: without it the Host header would decide what is same-origin', () => {
    expect(configError({ NODE_ENV: 'production', SESSION_SECRET: SECRET })).toMatch(
      /^\s+PUBLIC_ORIGIN: is required when NODE_ENV=production \(the site's address/m,
    );
    expect(
      configError({ NODE_ENV: 'production', SESSION_SECRET: SECRET, PUBLIC_ORIGIN: '' }),
    ).toMatch(/PUBLIC_ORIGIN: is required/);
    expect(
      loadConfig({
        NODE_ENV: 'production',
        SESSION_SECRET: SECRET,
        PUBLIC_ORIGIN: `${ORIGIN}/`,
        GAMES_ORIGIN: GAMES,
      }).publicOrigin,
    ).toBe(ORIGIN);
    // development and tests run without it (then only loopback host names count as the site)
    expect(loadConfig({ NODE_ENV: 'test', SESSION_SECRET: SECRET }).publicOrigin).toBeUndefined();
  });

  describe('the games origin must be another site than the site (cookies are per host, not per port)', () => {
    const production = { NODE_ENV: 'production', SESSION_SECRET: SECRET, PUBLIC_ORIGIN: ORIGIN };

    it("refuses to start production with games on the site's registrable domain, naming both settings", () => {
      for (const games of [
        'https://games.portfolio.example',
        'https://portfolio.example:8443',
        'http://PORTFOLIO.example',
      ]) {
        const message = configError({ ...production, GAMES_ORIGIN: games });
        expect(message).toMatch(/GAMES_ORIGIN: /);
        expect(message).toContain(`GAMES_ORIGIN (${new URL(games).origin})`);
        expect(message).toContain(`same site as PUBLIC_ORIGIN (${ORIGIN})`);
        expect(message).toContain('GAMES_ORIGIN_ALLOW_SAME_SITE=true');
      }
      // the public suffix list decides, not the last two labels
      expect(
        configError({
          ...production,
          PUBLIC_ORIGIN: 'https://studio.co.uk',
          GAMES_ORIGIN: 'https://play.studio.co.uk',
        }),
      ).toMatch(/same site as PUBLIC_ORIGIN/);
      expect(
        loadConfig({
          ...production,
          PUBLIC_ORIGIN: 'https://studio.github.io',
          GAMES_ORIGIN: 'https://studio-games.github.io',
        }).gamesHost.sameSiteProblem,
      ).toBeUndefined();
      expect(
        loadConfig({ ...production, GAMES_ORIGIN: 'https://example-games.net' }).gamesHost,
      ).toMatchObject({ origin: 'https://example-games.net', sameSiteProblem: undefined });
    });

    it('refuses production without GAMES_ORIGIN when the site is not on a loopback name', () => {
      const message = configError(production);
      expect(message).toMatch(/GAMES_ORIGIN: GAMES_ORIGIN is unset/);
      expect(message).toContain(`PUBLIC_ORIGIN=${ORIGIN}`);
      expect(
        configError({ ...production, PUBLIC_ORIGIN: 'http://localhost:8080', HOST: '0.0.0.0' }),
      ).toMatch(/GAMES_ORIGIN is unset and the site is not on a loopback name \(HOST=0\.0\.0\.0/);
      // on loopback the games origin is the other loopback name, another cookie jar
      expect(
        loadConfig({ ...production, PUBLIC_ORIGIN: 'http://127.0.0.1:3000' }).gamesHost
          .sameSiteProblem,
      ).toBeUndefined();
    });

    it('starts anyway with GAMES_ORIGIN_ALLOW_SAME_SITE=true, keeping the reason for the warning', () => {
      const config = loadConfig({
        ...production,
        GAMES_ORIGIN: 'https://games.portfolio.example',
        GAMES_ORIGIN_ALLOW_SAME_SITE: 'true',
      });
      expect(config.gamesHost.origin).toBe('https://games.portfolio.example');
      expect(config.gamesHost.sameSiteProblem).toMatch(/same site as PUBLIC_ORIGIN/);
      expect(
        configError({
          ...production,
          GAMES_ORIGIN: 'https://games.portfolio.example',
          GAMES_ORIGIN_ALLOW_SAME_SITE: 'yes',
        }),
      ).toMatch(/GAMES_ORIGIN_ALLOW_SAME_SITE: /);
    });

    it('only warns in development', () => {
      const config = loadConfig({
        SESSION_SECRET: SECRET,
        PUBLIC_ORIGIN: ORIGIN,
        GAMES_ORIGIN: 'https://games.portfolio.example',
      });
      expect(config.gamesHost.sameSiteProblem).toMatch(/same site as PUBLIC_ORIGIN/);
      expect(loadConfig({ SESSION_SECRET: SECRET }).gamesHost.sameSiteProblem).toBeUndefined();
    });
  });

  it('listens on HOST when it is set (the Docker image sets 0.0.0.0)', () => {
    expect(loadConfig({ HOST: '0.0.0.0', SESSION_SECRET: SECRET }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '::1', SESSION_SECRET: SECRET }).host).toBe('::1');
  });

  it('makes a session secret in DATA_DIR when none is set, and keeps it across restarts', () => {
    const dataDir = path.join(tempDir(), 'not-yet-created');
    const first = loadConfig({ DATA_DIR: dataDir });
    expect(first.sessionSecret.length).toBeGreaterThanOrEqual(32);
    const file = path.join(dataDir, 'session-secret');
    expect(readFileSync(file, 'utf8')).toBe(first.sessionSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dataDir }).sessionSecret).toBe(first.sessionSecret);
    expect(loadConfig({ DATA_DIR: tempDir() }).sessionSecret).not.toBe(first.sessionSecret);
  });

  it('requires ADMIN_USERNAME and ADMIN_PASSWORD together', () => {
    expect(configError({ ADMIN_USERNAME: 'boss', SESSION_SECRET: SECRET })).toMatch(
      /ADMIN_USERNAME and ADMIN_PASSWORD must be set together/,
    );
    expect(configError({ ADMIN_PASSWORD: 'long enough password', SESSION_SECRET: SECRET })).toMatch(
      /must be set together/,
    );
    expect(
      loadConfig({
        ADMIN_USERNAME: ' boss ',
        ADMIN_PASSWORD: 'long enough password',
        SESSION_SECRET: SECRET,
      }).admin,
    ).toEqual({
      username: 'boss',
      password: 'long enough password',
    });
  });

  it('takes the four Stripe settings together, checked by their prefixes', () => {
    const stripe = {
      STRIPE_SECRET_KEY: 'sk_test_abc',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc',
      STRIPE_PRICE_ID: 'price_abc',
      SESSION_SECRET: SECRET,
    };
    expect(loadConfig(stripe).stripe).toEqual({
      secretKey: 'sk_test_abc',
      publishableKey: 'pk_test_abc',
      webhookSecret: 'whsec_abc',
      priceId: 'price_abc',
      apiUrl: undefined,
    });
    expect(loadConfig({ SESSION_SECRET: SECRET }).stripe).toBeUndefined();
    expect(configError({ ...stripe, STRIPE_PRICE_ID: '' })).toMatch(/must be set together/);
    expect(configError({ ...stripe, STRIPE_SECRET_KEY: 'pk_test_abc' })).toMatch(
      /STRIPE_SECRET_KEY: must be a Stripe secret key/,
    );
    expect(configError({ ...stripe, STRIPE_PUBLISHABLE_KEY: 'pk_live_abc' })).toMatch(
      /STRIPE_PUBLISHABLE_KEY: must be of the same mode/,
    );
    expect(configError({ ...stripe, STRIPE_API_URL: 'localhost:12111' })).toMatch(
      /STRIPE_API_URL: /,
    );
  });

  it('holds the admin from the environment to the registration rules', () => {
    expect(
      configError({ ADMIN_USERNAME: 'boss', ADMIN_PASSWORD: 'short', SESSION_SECRET: SECRET }),
    ).toMatch(/ADMIN_PASSWORD: must be at least 8 characters/);
    expect(
      configError({
        ADMIN_USERNAME: 'the boss',
        ADMIN_PASSWORD: 'long enough password',
        SESSION_SECRET: SECRET,
      }),
    ).toMatch(/ADMIN_USERNAME: may contain only/);
  });

  it('keeps only the origin of PUBLIC_ORIGIN, as browsers send it', () => {
    expect(
      loadConfig({ PUBLIC_ORIGIN: 'https://portfolio.example/', SESSION_SECRET: SECRET })
        .publicOrigin,
    ).toBe('https://portfolio.example');
    expect(configError({ PUBLIC_ORIGIN: 'portfolio.example', SESSION_SECRET: SECRET })).toMatch(
      /PUBLIC_ORIGIN: /,
    );
  });

  it('requires 2FA of admins by default in production only (ADMIN_REQUIRE_2FA)', () => {
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: SECRET,
      PUBLIC_ORIGIN: ORIGIN,
      GAMES_ORIGIN: GAMES,
    };
    expect(loadConfig(production).adminRequireTwoFactor).toBe(true);
    expect(loadConfig({ ...production, ADMIN_REQUIRE_2FA: 'false' }).adminRequireTwoFactor).toBe(
      false,
    );
    expect(loadConfig({ SESSION_SECRET: SECRET }).adminRequireTwoFactor).toBe(false);
    expect(
      loadConfig({ SESSION_SECRET: SECRET, ADMIN_REQUIRE_2FA: 'true' }).adminRequireTwoFactor,
    ).toBe(true);
    expect(
      loadConfig({ SESSION_SECRET: SECRET, ADMIN_REQUIRE_2FA: '' }).adminRequireTwoFactor,
    ).toBe(false);
    expect(configError({ SESSION_SECRET: SECRET, ADMIN_REQUIRE_2FA: 'yes' })).toMatch(
      /ADMIN_REQUIRE_2FA: /,
    );
  });
});

describe('storage settings', () => {
  const base = { SESSION_SECRET: SECRET };

  it('keeps files in the local folders unless STORAGE=s3', () => {
    expect(loadConfig({ ...base, DATA_DIR: tempDir() }).storage).toEqual({ kind: 'local' });
  });

  it('reads a bucket, its region, endpoint and addressing', () => {
    const config = loadConfig({
      ...base,
      DATA_DIR: tempDir(),
      STORAGE: 's3',
      S3_BUCKET: 'site-files',
      S3_REGION: 'eu-west-1',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(config.storage).toMatchObject({
      kind: 's3',
      bucket: 'site-files',
      region: 'eu-west-1',
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
    });
    const aws = loadConfig({
      ...base,
      DATA_DIR: tempDir(),
      STORAGE: 's3',
      S3_BUCKET: 'site-files',
      AWS_REGION: 'us-east-2',
    });
    expect(aws.storage).toMatchObject({ region: 'us-east-2', endpoint: undefined });
  });

  it('reads served objects through a disk cache under DATA_DIR unless it is 0 MiB', () => {
    const bucket = { ...base, STORAGE: 's3', S3_BUCKET: 'site-files', S3_REGION: 'eu-west-1' };
    const dataDir = tempDir();
    expect(loadConfig({ ...bucket, DATA_DIR: dataDir }).storage).toMatchObject({
      cache: { dir: path.join(dataDir, 'storage-cache'), maxBytes: 1024 * 1024 * 1024 },
    });
    const cacheDir = tempDir();
    const small = loadConfig({
      ...bucket,
      DATA_DIR: dataDir,
      STORAGE_CACHE_DIR: cacheDir,
      STORAGE_CACHE_MAX_MB: '64',
    });
    expect(small.storage).toMatchObject({ cache: { dir: cacheDir, maxBytes: 64 * 1024 * 1024 } });
    const off = loadConfig({ ...bucket, DATA_DIR: dataDir, STORAGE_CACHE_MAX_MB: '0' });
    expect(off.storage).toMatchObject({ kind: 's3', cache: undefined });
    expect(configError({ ...bucket, STORAGE_CACHE_MAX_MB: '-1' })).toContain(
      'STORAGE_CACHE_MAX_MB: must be 0 (no cache) or more MiB',
    );
    expect(configError({ ...bucket, STORAGE_CACHE_MAX_MB: 'lots' })).toContain(
      'STORAGE_CACHE_MAX_MB: must be a whole number of MiB (0 turns the cache off)',
    );
  });

  it('reads CDN addresses for media and public games, and refuses what is not one', () => {
    const config = loadConfig({
      ...base,
      DATA_DIR: tempDir(),
      MEDIA_PUBLIC_URL: 'https://cdn.example.net/site/',
      GAMES_PUBLIC_URL: 'https://games-cdn.example.net',
    });
    expect(config.media.publicUrl).toBe('https://cdn.example.net/site');
    expect(config.gamesHost.publicUrl).toBe('https://games-cdn.example.net');
    expect(loadConfig({ ...base, DATA_DIR: tempDir() }).media.publicUrl).toBeUndefined();
    const wrong = configError({
      ...base,
      MEDIA_PUBLIC_URL: 'cdn.example.net',
      GAMES_PUBLIC_URL: 'https://games-cdn.example.net/?v=1',
    });
    expect(wrong).toContain('MEDIA_PUBLIC_URL: must be an http:// or https:// URL');
    expect(wrong).toContain('GAMES_PUBLIC_URL: must have no ?query or #fragment');
  });

  it('says what is missing or wrong, one line per setting', () => {
    const message = configError({ ...base, STORAGE: 's3' });
    expect(message).toContain('S3_BUCKET: is required when STORAGE=s3');
    expect(message).toContain('S3_REGION: is required when STORAGE=s3');
    expect(configError({ ...base, STORAGE: 'bucket' })).toContain(
      "STORAGE: must be 'local' (folders under DATA_DIR) or 's3'",
    );
    const wrong = configError({
      ...base,
      STORAGE: 's3',
      S3_BUCKET: 'Site_Files',
      S3_REGION: 'eu-west-1',
      S3_ENDPOINT: 'minio:9000',
      S3_FORCE_PATH_STYLE: 'yes',
    });
    expect(wrong).toContain('S3_BUCKET: must be a bucket name');
    expect(wrong).toContain('S3_ENDPOINT: must be an http:// or https:// URL');
    expect(wrong).toContain("S3_FORCE_PATH_STYLE: must be 'true' or 'false'");
    expect(configError({ ...base, AWS_ACCESS_KEY_ID: 'AKIA' })).toContain(
      'AWS_SECRET_ACCESS_KEY: AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY must be set together',
    );
  });
});
