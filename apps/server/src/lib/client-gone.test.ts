import { connect } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SESSION_COOKIE } from '../modules/auth/session-service.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { captureLogs } from './logger.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.stop();
});

/**
 * Sends the headers and part of the body, then ends the connection as a client that gave up
 * would; resolves with every byte the server wrote back.
 */
function cutOff(path: string, extraHeaders = ''): Promise<string> {
  const url = new URL(app.url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${url.host}\r\nOrigin: ${app.url}\r\n` +
          `Content-Type: application/json\r\nContent-Length: 200\r\n${extraHeaders}\r\n` +
          '{"currentPage":"/ga',
      );
      setTimeout(() => socket.end(), 50);
    });
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.once('close', () => resolve(received));
    socket.once('error', reject);
  });
}

describe('a cut-off request', () => {
  it('is answered with nothing and logged as nothing, on the heartbeat fast path and in Express', async () => {
    const logs = captureLogs();
    const { client } = await (await import('../test/factories.js')).signedInClient(app);
    const cookie = /sid=[^;]+/.exec(client.cookieHeader)?.[0] ?? `${SESSION_COOKIE}=x`;
    const cases = [
      cutOff('/api/anonymous-heartbeat'),
      cutOff('/api/auth/heartbeat', `Cookie: ${cookie}\r\n`),
      cutOff('/api/auth/login'),
      cutOff('/api/track-game-click'),
    ];
    expect(await Promise.all(cases)).toEqual(['', '', '', '']);
    // the server is fine and still answers
    expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
    logs.restore();
    expect(logs.linesAtLeast('warn')).toEqual([]);
  });
});
