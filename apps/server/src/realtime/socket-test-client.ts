import { io, type Socket } from 'socket.io-client';

import type { ClientToServerEvents, ServerToClientEvents } from '@portfolio/types';
import {
  ROOMS_NAMESPACE,
  type RoomsClientToServerEvents,
  type RoomsServerToClientEvents,
} from '@portfolio/types/rooms';

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

export type RoomsTestSocket = Socket<RoomsServerToClientEvents, RoomsClientToServerEvents>;

/** A viewer's socket on the /rooms namespace (WebSocket, the tab's cookies, the game's id). */
export function openRoomsSocket(
  baseUrl: string,
  gameId: string,
  headers: Record<string, string> = {},
): RoomsTestSocket {
  return io(`${baseUrl}${ROOMS_NAMESPACE}`, {
    transports: ['websocket'],
    extraHeaders: headers,
    auth: { gameId },
    forceNew: true,
    reconnection: false,
  });
}

/** Sends a rooms request and resolves with its ack. */
export function roomsRequest<E extends keyof RoomsClientToServerEvents>(
  socket: RoomsTestSocket,
  event: E,
  request: Parameters<RoomsClientToServerEvents[E]>[0],
  timeoutMs = scaled(3000),
): Promise<Parameters<Parameters<RoomsClientToServerEvents[E]>[1]>[0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ack to '${event}'`)), timeoutMs);
    const emit = socket.emit.bind(socket) as (
      name: string,
      body: unknown,
      ack: (answer: Parameters<Parameters<RoomsClientToServerEvents[E]>[1]>[0]) => void,
    ) => void;
    emit(event, request, (answer) => {
      clearTimeout(timer);
      resolve(answer);
    });
  });
}

/** The first `event` on a rooms socket that satisfies `accept`. */
export function waitForRoomsEvent<E extends keyof RoomsServerToClientEvents>(
  socket: RoomsTestSocket,
  event: E,
  accept: (payload: Parameters<RoomsServerToClientEvents[E]>[0]) => boolean = () => true,
  timeoutMs = scaled(3000),
): Promise<Parameters<RoomsServerToClientEvents[E]>[0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.offAny(listener);
      reject(new Error(`no matching '${event}' within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (name: string, payload: Parameters<RoomsServerToClientEvents[E]>[0]) => {
      if (name === event && accept(payload)) {
        clearTimeout(timer);
        socket.offAny(listener);
        resolve(payload);
      }
    };
    socket.onAny(listener);
  });
}

/** Resolves when connected; rejects with an error carrying the refusal's code and message. */
export function roomsConnected(socket: RoomsTestSocket, timeoutMs = scaled(3000)): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('socket did not connect')), timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.once(
      'connect_error',
      (error: Error & { data?: { code?: string; message?: string } }) => {
        clearTimeout(timer);
        // the refusal's code and message on the error, as a client reads them
        reject(
          Object.assign(new Error(error.data?.message ?? error.message), {
            code: error.data?.code,
          }),
        );
      },
    );
  });
}
