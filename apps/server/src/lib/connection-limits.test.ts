import { connect, type Socket } from 'node:net';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import {
  type RecordingSocket,
  openSocket,
  waitForConnect,
} from '../realtime/socket-test-client.js';
import { makeZip, someScript } from '../modules/game-host/test-zips.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { buildGame, signedInClient } from '../test/factories.js';

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

  /**
   * Sends `head` and then a body one byte every 200 ms (of the Content-Length it declares, never
   * finished); resolves with what the server sent and when it closed the connection.
   */
  async function trickleAfter(head: string, localAddress: string) {
    const socket = await rawConnection(localAddress);
    socket.write(head);
    const drip = setInterval(() => {
      if (socket.writable) {
        socket.write('x');
      }
    }, 200);
    const closed = await untilClosed(socket);
    clearInterval(drip);
    return closed;
  }

  it(
    'closes a connection answered before its body arrived within REQUEST_TIMEOUT_MS',
    { timeout: 15_000 },
    async () => {
      const { client } = await signedInClient(app, 'admin');
      const post = (path: string, headers: string) =>
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n${headers}Content-Length: 100000\r\n\r\n`;
      const cases = [
        // 415: not JSON, refused by the same-origin guard before the body is read
        { head: post('/api/auth/login', 'Content-Type: text/plain\r\n'), status: 415 },
        // 404: no route outside /api reads a POST's body
        { head: post('/no-such-page', 'Content-Type: application/json\r\n'), status: 404 },
        // 401: a thumbnail or a build upload without a session
        {
          head: post('/api/admin/games/Pong/thumbnail', 'Content-Type: image/png\r\n').replace(
            'POST',
            'PUT',
          ),
          status: 401,
        },
        {
          head: post('/api/admin/games/Pong/build', 'Content-Type: application/zip\r\n').replace(
            'POST',
            'PUT',
          ),
          status: 401,
        },
        // 404 to an admin: a build upload for a game that does not exist (long-upload rules)
        {
          head: post(
            '/api/admin/games/NoSuchGame/build',
            `Cookie: ${client.cookieHeader}\r\nContent-Type: application/zip\r\n`,
          ).replace('POST', 'PUT'),
          status: 404,
        },
      ];
      const results = await Promise.all(
        cases.map(({ head }, index) => trickleAfter(head, `127.0.0.${20 + index}`)),
      );
      results.forEach((closed, index) => {
        expect(closed.text).toMatch(new RegExp(`^HTTP/1\\.1 ${cases[index]?.status ?? 0} `));
        // REQUEST_TIMEOUT_MS is 2 s here, checked every second
        expect(closed.ms).toBeLessThan(3500);
      });
    },
  );

  it('closes a Socket.IO polling request whose body trickles in within REQUEST_TIMEOUT_MS', async () => {
    // the engine answers 400 at once (no session id) and Node goes on reading the body
    const closed = await trickleAfter(
      `POST /socket.io/?EIO=4&transport=polling HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        'Content-Type: text/plain;charset=UTF-8\r\nContent-Length: 1000000\r\n\r\n',
      '127.0.0.27',
    );
    expect(closed.text).toMatch(/^HTTP\/1\.1 400 /);
    expect(closed.ms).toBeLessThan(3500);
  });

  it('reads at most 1 MB of a body after answering before it', async () => {
    const socket = await rawConnection('127.0.0.26');
    socket.write(
      `PUT /api/admin/games/Pong/build HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        'Content-Type: application/zip\r\nContent-Length: 100000000\r\n\r\n',
    );
    const closed = untilClosed(socket);
    // as fast as the connection takes it: far more than 1 MB within the deadline
    const piece = Buffer.alloc(64 * 1024);
    let sent = 0;
    while (!socket.destroyed && sent < 50 * 1024 * 1024) {
      if (!socket.write(piece)) {
        await new Promise((resolve) => {
          socket.once('drain', resolve);
          socket.once('close', resolve);
        });
      }
      sent += piece.length;
    }
    const { text, ms } = await closed;
    expect(text).toMatch(/^HTTP\/1\.1 401 /);
    // the byte bound, not the deadline (REQUEST_TIMEOUT_MS, 2 s here), ended it
    expect(ms).toBeLessThan(1500);
  });

  it('cuts a trickled heartbeat body within REQUEST_TIMEOUT_MS', async () => {
    const closed = await trickleAfter(
      `POST /api/anonymous-heartbeat HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n',
      '127.0.0.30',
    );
    expect(closed.text).toMatch(/^HTTP\/1\.1 (408|413) /);
    expect(closed.ms).toBeLessThan(3500);
  });

  it('closes a trickled request to the games origin within REQUEST_TIMEOUT_MS', async () => {
    const gamesPort = Number(new URL(app.gamesUrl).port);
    const socket = await new Promise<Socket>((resolve, reject) => {
      const opened = connect(
        { host: '127.0.0.1', port: gamesPort, localAddress: '127.0.0.31' },
        () => resolve(opened),
      );
      opened.once('error', reject);
    });
    socket.write(
      `POST /Pong/1/index.html HTTP/1.1\r\nHost: 127.0.0.1:${gamesPort}\r\n` +
        'Content-Type: text/plain\r\nContent-Length: 100000\r\n\r\n',
    );
    const drip = setInterval(() => {
      if (socket.writable) {
        socket.write('x');
      }
    }, 200);
    const closed = await untilClosed(socket);
    clearInterval(drip);
    expect(closed.text).toMatch(/^HTTP\/1\.1 4\d\d /);
    // one answer, not a 408 written after it when the deadline passes
    expect(closed.text.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    expect(closed.ms).toBeLessThan(3500);
  });

  it('lets a game build upload take longer than REQUEST_TIMEOUT_MS while bytes keep coming', async () => {
    const { client } = await signedInClient(app, 'admin');
    const gameId = await buildGame(client, {
      id: `Slow${Date.now().toString(36)}`,
      title: 'Slow upload',
    });
    const zip = await makeZip(
      { 'index.html': '<!DOCTYPE html><title>x</title>', 'game.js': someScript('slow', 8) },
      { compress: false },
    );
    const socket = await rawConnection('127.0.0.6');
    socket.write(
      `PUT /api/admin/games/${gameId}/build HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Cookie: ${client.cookieHeader}\r\nContent-Type: application/zip\r\n` +
        `Content-Length: ${zip.length}\r\nConnection: close\r\n\r\n`,
    );
    const closed = untilClosed(socket);
    // about 3.5 s in all (REQUEST_TIMEOUT_MS is 2 s here), a piece every 250 ms
    const pieces = 14;
    const size = Math.ceil(zip.length / pieces);
    for (let piece = 0; piece < pieces; piece++) {
      socket.write(zip.subarray(piece * size, (piece + 1) * size));
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect((await closed).text).toMatch(/^HTTP\/1\.1 201/);
  });

  it('cuts a game build upload that stalls for REQUEST_TIMEOUT_MS', async () => {
    const { client } = await signedInClient(app, 'admin');
    const socket = await rawConnection('127.0.0.7');
    socket.write(
      `PUT /api/admin/games/Pong/build HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        `Cookie: ${client.cookieHeader}\r\nContent-Type: application/zip\r\n` +
        'Content-Length: 100000\r\n\r\nPK',
    );
    const closed = await untilClosed(socket);
    expect(closed.text).toMatch(/^HTTP\/1\.1 408/);
    expect(closed.ms).toBeLessThan(6000);
  });
});
