import { API_ERRORS, isApiErrorCode } from '@portfolio/types/errors';
import {
  ROOMS_NAMESPACE,
  type RoomsClientToServerEvents,
  type RoomsServerToClientEvents,
} from '@portfolio/types/rooms';

import { HttpError } from '../../lib/http';
import { SOCKET_PATH } from '../../lib/socket';

/*
 * The one Socket.IO connection of a game viewer to the room service (`/rooms`), behind a small
 * interface the room client uses (and its tests fake). socket.io-client loads with the first
 * rooms request, so the games page's chunk does not carry it.
 */

type ClientEvent = keyof RoomsClientToServerEvents;
type ServerEvent = keyof RoomsServerToClientEvents;
export type RequestOf<E extends ClientEvent> = Parameters<RoomsClientToServerEvents[E]>[0];
export type AckOf<E extends ClientEvent> = Parameters<
  Parameters<RoomsClientToServerEvents[E]>[1]
>[0];

/** How long an acknowledgement may take before the request counts as failed. */
export const ROOM_ACK_TIMEOUT_MS = 10_000;

export interface RoomsConnection {
  on<E extends ServerEvent>(event: E, listener: RoomsServerToClientEvents[E]): void;
  /** Connected (`isReconnect`: again, after a drop: the seat must be taken back). */
  onConnect(listener: (isReconnect: boolean) => void): void;
  /** The service refused the connection for good (e.g. ROOMS_SIGN_IN for a guest). */
  onRefused(listener: (error: HttpError) => void): void;
  /** One request and its acknowledgement; rejects with an HttpError when none comes. */
  request<E extends ClientEvent>(event: E, payload: RequestOf<E>): Promise<AckOf<E>>;
  close(): void;
}

/** An HttpError for a refusal, with the catalogue's status for its code. */
export function roomError(code: string, message?: string): HttpError {
  const entry = isApiErrorCode(code) ? API_ERRORS[code] : undefined;
  return new HttpError({ status: entry?.status ?? 400, code, message: message ?? entry?.message });
}

function unavailable(): HttpError {
  return roomError('SERVICE_UNAVAILABLE', 'The room service is not reachable.');
}

/** The refusal a connect_error carries (`{ data: { code, message } }`), if any. */
function refusalOf(error: unknown): HttpError | null {
  if (typeof error !== 'object' || error === null || !('data' in error)) {
    return null;
  }
  const { data } = error;
  if (typeof data !== 'object' || data === null || !('code' in data)) {
    return null;
  }
  const message = 'message' in data && typeof data.message === 'string' ? data.message : undefined;
  return typeof data.code === 'string' ? roomError(data.code, message) : null;
}

/** Opens the viewer's connection to `/rooms` for `gameId` (session cookie, `auth: { gameId }`). */
export async function openRoomsConnection(gameId: string): Promise<RoomsConnection> {
  const { io } = await import('socket.io-client');
  const socket = io(ROOMS_NAMESPACE, {
    path: SOCKET_PATH,
    withCredentials: true,
    auth: { gameId },
    transports: ['websocket', 'polling'],
  });
  let hasConnected = false;
  let refused: HttpError | null = null;
  const failPending = new Set<(error: HttpError) => void>();
  // the typed socket's generics do not narrow over a generic event name: one untyped view
  const emitter = socket as unknown as {
    timeout(ms: number): {
      emit(event: string, payload: unknown, ack: (...args: unknown[]) => void): void;
    };
    on(event: string, listener: (...args: never[]) => void): void;
  };

  socket.on('connect_error', (error) => {
    // a refusal by the service's middleware is final: Socket.IO does not try again
    if (!socket.active) {
      refused = refusalOf(error) ?? unavailable();
      for (const fail of failPending) {
        fail(refused);
      }
    }
  });

  return {
    on(event, listener) {
      emitter.on(event, listener);
    },
    onConnect(listener) {
      socket.on('connect', () => {
        listener(hasConnected);
        hasConnected = true;
      });
    },
    onRefused(listener) {
      socket.on('connect_error', () => {
        if (refused) {
          listener(refused);
        }
      });
    },
    request(event, payload) {
      if (refused) {
        return Promise.reject(refused);
      }
      return new Promise((resolve, reject) => {
        const fail = (error: HttpError) => {
          failPending.delete(fail);
          reject(error);
        };
        failPending.add(fail);
        emitter.timeout(ROOM_ACK_TIMEOUT_MS).emit(event, payload, (error, answer) => {
          failPending.delete(fail);
          if (error) {
            reject(unavailable());
            return;
          }
          resolve(answer as AckOf<typeof event>);
        });
      });
    },
    close() {
      socket.disconnect();
    },
  };
}
