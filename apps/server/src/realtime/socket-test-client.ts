import { io, type Socket } from 'socket.io-client';

import type { ClientToServerEvents, ServerToClientEvents } from '@portfolio/types';

import { scaled } from '../test/slow-machine.js';

export type TestSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface RecordingSocket {
  socket: TestSocket;
  /** Every event received, in order. */
  received: Array<{ event: string; payload: unknown }>;
  close(): void;
}

/** A Socket.IO client as a browser tab would open it (WebSocket, the tab's cookies and origin). */
export function openSocket(baseUrl: string, headers: Record<string, string> = {}): RecordingSocket {
  const socket: TestSocket = io(baseUrl, {
    transports: ['websocket'],
    extraHeaders: headers,
    forceNew: true,
    reconnection: false,
  });
  const received: RecordingSocket['received'] = [];
  socket.onAny((event: string, payload: unknown) => received.push({ event, payload }));
  return { socket, received, close: () => socket.disconnect() };
}

export function waitForConnect(socket: TestSocket, timeoutMs = scaled(3000)): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket did not connect')), timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once('connect_error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Resolves with the first payload of `event` that satisfies `accept`, or rejects after the timeout. */
export function waitForEvent<E extends keyof ServerToClientEvents>(
  socket: TestSocket,
  event: E,
  accept: (payload: Parameters<ServerToClientEvents[E]>[0]) => boolean,
  timeoutMs = scaled(2000),
): Promise<Parameters<ServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.offAny(listener);
      reject(new Error(`no matching '${event}' within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (name: string, payload: Parameters<ServerToClientEvents[E]>[0]) => {
      if (name === event && accept(payload)) {
        clearTimeout(timer);
        socket.offAny(listener);
        resolve(payload);
      }
    };
    socket.onAny(listener);
  });
}
