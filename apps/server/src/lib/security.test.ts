import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiError } from '@portfolio/types';

import { startTestApp, type TestApp, uniqueName } from '../test/harness.js';
import { signedInClient } from '../test/factories.js';

/** A request with exactly these headers, Host included (fetch sets its own Host). */
function rawRequest(
  baseUrl: string,
  method: string,
  target: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: string }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(target, baseUrl),
      {
        method,
        headers: {
          ...headers,
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ publicOrigin: 'https://portfolio.example' });
});
afterAll(async () => {
  await app.stop();
});

describe('same-origin guard on state-changing API calls', () => {
  it('refuses a request from another site by its Origin, before the handler runs', async () => {
    const { username, password } = await signedInClient(app);
    const response = await app
      .client()
      .post<ApiError>(
        '/api/auth/login',
        { username, password },
        { origin: 'https://evil.example' },
      );
    expect(response.status).toBe(403);
    expect(response.body.error).toEqual({
      code: 'FORBIDDEN',
      message: 'Cross-site requests are not allowed',
    });
    expect(response.headers.getSetCookie()).toEqual([]);
  });

  it('refuses a request the browser marks cross-site or same-site', async () => {
    for (const site of ['cross-site', 'same-site']) {
      const response = await app.client().post('/api/auth/logout', {}, { 'sec-fetch-site': site });
      expect(response.status, site).toBe(403);
    }
  });

  it('refuses bodies that are not JSON, as a plain HTML form would send them', async () => {
    const plain = await app.client().post<ApiError>('/api/auth/register', 'username=x&password=y', {
      'content-type': 'text/plain',
    });
    expect(plain.status).toBe(415);
    expect(plain.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    const form = await app.client().post('/api/auth/register', 'username=x&password=y', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
  });

  it('lets the configured public origin through, and no other, even with a matching Host', async () => {
    const password = 'correct horse battery';
    const publicOrigin = await app
      .client()
      .post(
        '/api/auth/register',
        { username: uniqueName(), password },
        { origin: 'https://portfolio.example', 'sec-fetch-site': 'cross-site' },
      );
    expect(publicOrigin.status).toBe(201);
    // what a DNS-rebinding page looks like: its Origin matches the Host it made the browser send
    const rebound = await app
      .client()
      .post(
        '/api/auth/register',
        { username: uniqueName(), password },
        { origin: app.url, 'sec-fetch-site': 'same-origin' },
      );
    expect(rebound.status).toBe(403);
    // no Origin at all (curl, server-to-server) is not a browser attack
    expect((await app.client().post('/api/auth/logout')).status).toBe(200);
  });

  it('without PUBLIC_ORIGIN, accepts exactly the scheme and host the request came in on', async () => {
    const plain = await startTestApp();
    try {
      const password = 'correct horse battery';
      const register = (origin: string) =>
        plain.client().post('/api/auth/register', { username: uniqueName(), password }, { origin });
      expect((await register(plain.url)).status).toBe(201);
      expect((await register(plain.url.replace('http:', 'https:'))).status).toBe(403);
      expect((await register('http://evil.example')).status).toBe(403);
    } finally {
      await plain.stop();
    }
  });

  it('without PUBLIC_ORIGIN, counts only loopback host names as the site (DNS rebinding)', async () => {
    const plain = await startTestApp();
    try {
      const port = new URL(plain.url).port;
      const password = 'correct horse battery';
      /** A browser's request as a page at http://<host> would send it: Host and Origin agree. */
      const asPageAt = (host: string, method: string, target: string, body?: unknown) =>
        rawRequest(plain.url, method, target, { host, origin: `http://${host}` }, body);
      const answers = async (host: string) => [
        (await asPageAt(host, 'POST', '/api/auth/register', { username: uniqueName(), password }))
          .status,
        (
          await asPageAt(host, 'POST', '/api/anonymous-heartbeat', {
            currentPage: '/',
            visitorId: 'rebinding_visitor_0123456789',
          })
        ).status,
        // the Socket.IO handshake (long-polling's first request)
        (await asPageAt(host, 'GET', '/socket.io/?EIO=4&transport=polling')).status,
      ];
      for (const host of ['evil', `evil:${port}`, `127.0.0.1.evil.example:${port}`]) {
        expect(await answers(host), host).toEqual([403, 403, 403]);
      }
      for (const host of [
        `localhost:${port}`,
        `127.0.0.1:${port}`,
        `127.7.8.9:${port}`,
        `[::1]:${port}`,
      ]) {
        expect(await answers(host), host).toEqual([201, 200, 200]);
      }
    } finally {
      await plain.stop();
    }
  });

  it('refuses API reads from other origins too, and answers plain ones', async () => {
    expect(
      (
        await app
          .client()
          .request('GET', '/api/health', undefined, { origin: 'https://evil.example' })
      ).status,
    ).toBe(403);
    expect((await app.client().request('GET', '/api/health')).status).toBe(200);
  });
});

describe('security headers', () => {
  it('sends a strict Content-Security-Policy and the usual hardening headers', async () => {
    const { headers } = await app.client().get('/api/health');
    const csp = headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("base-uri 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(headers.get('x-content-type-options')).toBe('nosniff');
    expect(headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(headers.get('referrer-policy')).toBe('no-referrer');
    expect(headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(headers.get('x-powered-by')).toBeNull();
    // HSTS only in production (behind TLS)
    expect(headers.get('strict-transport-security')).toBeNull();
  });

  const directive = (csp: string, name: string) =>
    csp
      .split(';')
      .map((part) => part.trim())
      .find((part) => part.startsWith(`${name} `)) ?? '';

  it('allows Stripe.js, its frames and its API on the checkout page only', async () => {
    const webDist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>site</title>');
    const site = await startTestApp({ webDistDir: webDist });
    const page = async (pagePath: string) =>
      (await site.client().get(pagePath)).headers.get('content-security-policy') ?? '';
    const checkout = await page('/subscribe');
    const elsewhere = await page('/games');
    const home = await page('/');
    const checkoutOtherCase = await page('/Subscribe/');
    await site.stop();
    rmSync(webDist, { recursive: true, force: true });
    expect(directive(checkout, 'script-src')).toBe(
      "script-src 'self' https://js.stripe.com https://*.js.stripe.com",
    );
    expect(directive(checkout, 'connect-src')).toBe("connect-src 'self' https://api.stripe.com");
    expect(directive(checkout, 'frame-src')).toContain(
      'https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com',
    );
    // the router matches paths case-insensitively, and so does the policy
    expect(checkoutOtherCase).toBe(checkout);
    for (const csp of [elsewhere, home]) {
      expect(csp).not.toContain('stripe');
      expect(directive(csp, 'script-src')).toBe("script-src 'self'");
      expect(directive(csp, 'connect-src')).toBe("connect-src 'self'");
    }
    // every other directive is the same strict one
    const withoutStripe = (csp: string) =>
      csp
        .split(';')
        .map((part) =>
          part
            .split(' ')
            .filter((source) => !source.includes('stripe.com'))
            .join(' '),
        )
        .join(';');
    expect(withoutStripe(checkout)).toBe(elsewhere);
  });
});
