import type { IncomingMessage } from 'node:http';

import express from 'express';
import { describe, expect, it } from 'vitest';

import { createRequestOrigin, parseTrustProxy } from './proxy-trust.js';

function fakeRequest(remoteAddress: string, headers: Record<string, string>): IncomingMessage {
  return { socket: { remoteAddress }, connection: { remoteAddress }, headers } as never;
}

/** What Express itself answers for req.ip and req.protocol with the same setting. */
function expressView(setting: string | undefined, request: IncomingMessage) {
  const app = express();
  app.set('trust proxy', parseTrustProxy(setting));
  const req = Object.create(app.request as object) as express.Request;
  Object.assign(req, request, {
    app,
    get: (name: string) => request.headers[name.toLowerCase()],
    header: (name: string) => request.headers[name.toLowerCase()],
  });
  return { ip: req.ip, protocol: req.protocol };
}

describe('createRequestOrigin', () => {
  const request = fakeRequest('10.0.0.2', {
    'x-forwarded-for': '203.0.113.9, 198.51.100.7',
    'x-forwarded-proto': 'https, http',
  });

  it.each([undefined, 'false', '0', '1', '2', 'true', 'loopback', '10.0.0.0/8, 198.51.100.7'])(
    'reads the address and protocol as Express does for TRUST_PROXY=%s',
    (setting) => {
      const origin = createRequestOrigin(setting);
      expect({
        ip: origin.clientAddress(request),
        protocol: origin.protocol(request),
      }).toEqual(expressView(setting, request));
    },
  );

  it('ignores forwarded headers when no proxy is trusted', () => {
    const origin = createRequestOrigin(undefined);
    expect(origin.clientAddress(request)).toBe('10.0.0.2');
    expect(origin.protocol(request)).toBe('http');
  });

  it('takes the address one trusted hop in, not the leftmost one a client can write', () => {
    expect(createRequestOrigin('1').clientAddress(request)).toBe('198.51.100.7');
  });
});
