import { connect, type Socket } from 'node:net';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import {
  type RecordingSocket,
  openSocket,
  waitForConnect,
} from '../realtime/socket-test-client.js';
import { startTestApp, type TestApp } from '../test/harness.js';

let app: TestApp;
let port: number;
beforeAll(async () => {
  app = await startTestApp({
    trustProxy: undefined,
    connections: {
      socketsPerAddress: 3,
      connectionsPerAddress: 12,
      maxConnections: 1000,
      headersTimeoutMs: 1000,
      requestTimeoutMs: 2000,
    },
  });
  port = Number(new URL(app.url).port);
});
afterAll(async () => {
  await app.stop();
});

/** A raw TCP connection from `localAddress` (Linux answers on all of 127.0.0.0/8). */
function rawConnection(localAddress = '127.0.0.1'): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Resolves with what the server sent and how long until it closed the connection. */
function untilClosed(socket: Socket): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  return new Promise((resolve) => {
    socket.once('close', () => resolve({ text, ms: Date.now() - started }));
    socket.on('error', () => undefined);
  });
}

describe('connection limits', () => {
  it('refuses more than SOCKETS_PER_ADDRESS sockets from one address at the handshake', async () => {
    const open: RecordingSocket[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const tab = openSocket(app.url);
        open.push(tab);
        await waitForConnect(tab.socket);
      }
      const fourth = openSocket(app.url);
      open.push(fourth);
      await expect(waitForConnect(fourth.socket)).rejects.toThrow();
      // closing one makes room again
      open[0]?.close();
      await vi.waitFor(async () => {
        const again = openSocket(app.url);
        open.push(again);
        await waitForConnect(again.socket);
      });
    } finally {
      open.forEach((tab) => tab.close());
    }
  });

  it('closes TCP connections past CONNECTIONS_PER_ADDRESS from one address, not from others', async () => {
    const held: Socket[] = [];
    try {
      for (let i = 0; i < 12; i++) {
        held.push(await rawConnection('127.0.0.3'));
      }
      const extra = await rawConnection('127.0.0.3');
      const closed = await untilClosed(extra);
      expect(closed.text).toBe('');
      const health = await fetch(`${app.url}/api/health`);
      expect(health.status).toBe(200);
    } finally {
      held.forEach((socket) => socket.destroy());
    }
  });

  it('cuts a request whose headers do not arrive within HEADERS_TIMEOUT_MS', async () => {
    const socket = await rawConnection('127.0.0.4');
    socket.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n');
    const closed = await untilClosed(socket);
    expect(closed.text).toMatch(/^HTTP\/1\.1 408/);
    expect(closed.ms).toBeLessThan(4000);
  });

  it('cuts a body that trickles in for longer than REQUEST_TIMEOUT_MS', async () => {
    const socket = await rawConnection('127.0.0.5');
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    const drip = setInterval(() => socket.write(' '), 200);
    const closed = await untilClosed(socket);
    clearInterval(drip);
    expect(closed.ms).toBeLessThan(5000);
  });
});
