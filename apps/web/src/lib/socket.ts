import type { ClientToServerEvents, ServerToClientEvents } from '@portfolio/types';
import { io, type Socket } from 'socket.io-client';

/** A Socket.IO connection typed with the shared event maps, so a renamed event fails to compile. */
export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Same origin as the page; the Vite dev server proxies this path to the API. */
export const SOCKET_PATH = '/socket.io';

/**
 * Opens a Socket.IO connection to the API on the page's origin. The session cookie authorises
 * it (admins join the admin room on the server). The caller owns the socket and must call
 * `disconnect()` when done, for example in an effect's cleanup.
 */
export function createSocket(): AppSocket {
  return io({ path: SOCKET_PATH, withCredentials: true, transports: ['websocket', 'polling'] });
}
