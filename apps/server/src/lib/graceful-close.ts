import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** How long a connection accepted just before shutdown has to send its request. */
const GRACE_MS = 1000;
/** How long new connections are still accepted (answered with Connection: close) after the signal. */
const ACCEPT_DRAIN_MS = 500;

/**
 * Closes an HTTP server without failing a request that has reached it:
 *
 * - the listener closes after one turn of the event loop (new connections go to another
 *   replica), having accepted the connections already waiting in the kernel's queue;
 * - every response from now on says `Connection: close`, so keep-alive clients do not send
 *   another request on a connection that is about to end;
 * - a connection with no request yet is given `GRACE_MS` to send one before it is closed (Node's
 *   own `close()` ends such connections at once, resetting a request already on its way);
 * - requests running after `hardLimitMs` are cut, so shutdown always ends.
 *
 * Call `createGracefulClose(server)` when the server is created, and its `close()` at shutdown.
 */
export function createGracefulClose(server: Server) {
  const busy = new Map<Socket, number>();
  const sockets = new Set<Socket>();
  let closing = false;

  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      busy.delete(socket);
    });
  });
  // one function for every response ('close' comes once): no closure or once-wrapper per request
  function onResponseClose(this: ServerResponse) {
    const socket = this.req.socket;
    const left = (busy.get(socket) ?? 1) - 1;
    if (left <= 0) {
      busy.delete(socket);
      if (closing) {
        socket.end();
      }
    } else {
      busy.set(socket, left);
    }
  }
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    busy.set(socket, (busy.get(socket) ?? 0) + 1);
    if (closing) {
      res.setHeader('Connection', 'close');
    }
    res.on('close', onResponseClose);
  });

  const closeIdle = () => {
    for (const socket of sockets) {
      if (!busy.has(socket)) {
        socket.end();
        socket.destroySoon();
      }
    }
  };

  return {
    close(hardLimitMs = 10_000): Promise<void> {
      closing = true;
      const closeListener = server.close.bind(server);
      // Node 19+ closes idle connections inside every close(): from now on that waits for the
      // grace period
      server.closeIdleConnections = () => undefined;
      const closed = new Promise<void>((resolve) => {
        // connections the kernel has already completed wait in the listen queue: closing the
        // listener would reset them, and a busy event loop may not have taken them in yet. Half a
        // second more of accepting takes them in first.
        setTimeout(() => closeListener(() => resolve()), ACCEPT_DRAIN_MS);
        setTimeout(closeIdle, GRACE_MS).unref();
        setTimeout(() => server.closeAllConnections(), hardLimitMs).unref();
      });
      // a later close() (Socket.IO's, when it shuts down) joins this one instead of closing now
      server.close = (callback?: (error?: Error) => void) => {
        void closed.then(() => callback?.());
        return server;
      };
      return closed;
    },
  };
}
