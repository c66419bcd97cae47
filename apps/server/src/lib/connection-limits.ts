import type { Server } from 'node:http';
import type { Socket } from 'node:net';

import type { ConnectionLimits } from '../config.js';
import { rateLimitAddress } from './client-address.js';
import { compileTrust, parseTrustProxy } from './proxy-trust.js';

/**
 * Keeps one client from exhausting the process (its file handles above all):
 *
 * - `maxConnections`: TCP connections in total; beyond it Node closes new ones at once.
 * - `connectionsPerAddress`: TCP connections from one directly connecting address, except trusted
 *   proxies (behind nginx every client arrives from the proxy: there nginx's `limit_conn` and the
 *   per-client Socket.IO limit apply instead).
 * - headers must arrive within `headersTimeoutMs`, a whole request within `requestTimeoutMs`
 *   (Node checks both every second here, not every 30 s): a slow body is cut after seconds.
 *
 * The per-address Socket.IO limit is `createSocketLimiter`, applied at the handshake.
 */
export function applyConnectionLimits(
  server: Server,
  limits: ConnectionLimits,
  trustProxy: string | undefined,
): void {
  server.maxConnections = limits.maxConnections;
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  const trust = compileTrust(parseTrustProxy(trustProxy));
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || trust(address, 0)) {
      return;
    }
    const key = rateLimitAddress(address);
    const count = (open.get(key) ?? 0) + 1;
    if (count > limits.connectionsPerAddress) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) {
        open.delete(key);
      } else {
        open.set(key, left);
      }
    });
  });
}

/** Counts open Socket.IO connections per client address; `tryOpen` refuses past the limit. */
export function createSocketLimiter(limit: number) {
  const open = new Map<string, number>();
  return {
    /** Whether one more may open for this (client) address. */
    allows(address: string): boolean {
      return (open.get(rateLimitAddress(address)) ?? 0) < limit;
    },
    /** Counts an opened connection; returns the function that uncounts it. */
    opened(address: string): () => void {
      const key = rateLimitAddress(address);
      open.set(key, (open.get(key) ?? 0) + 1);
      let closed = false;
      return () => {
        if (closed) {
          return;
        }
        closed = true;
        const left = (open.get(key) ?? 1) - 1;
        if (left <= 0) {
          open.delete(key);
        } else {
          open.set(key, left);
        }
      };
    },
  };
}
