/**
 * The bots of bench/rooms.ts: guests on the /rooms namespace, in rooms of 4. The background
 * rooms run in a child process of their own (`BENCH_ROOMS_BOTS=1`, started by bench/rooms.ts),
 * so the probe pair that measures latency shares its event loop with nothing else.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

import { io, type Socket } from 'socket.io-client';

import {
  ROOMS_NAMESPACE,
  type RoomsClientToServerEvents,
  type RoomsServerToClientEvents,
} from '@portfolio/types/rooms';

export const PLAYERS = 4;
const CONNECT_BATCH = 100;

export type RoomsSocket = Socket<RoomsServerToClientEvents, RoomsClientToServerEvents>;

export interface Player {
  socket: RoomsSocket;
  playerId: string;
}

/** Parent → bots. */
export type BotsCommand =
  | { type: 'connect'; urls: string[]; rooms: number; gameId: string }
  | { type: 'fill' }
  | { type: 'load'; perSecond: number; seconds: number }
  | { type: 'stop' };
/** Bots → parent. */
export type BotsReply =
  | { type: 'connected' }
  | { type: 'filled' }
  | { type: 'loaded'; deliveries: number; refused: number; elapsed: number }
  | { type: 'failed'; error: string };

export function ack<E extends keyof RoomsClientToServerEvents>(
  socket: RoomsSocket,
  event: E,
  request: Parameters<RoomsClientToServerEvents[E]>[0],
): Promise<Parameters<Parameters<RoomsClientToServerEvents[E]>[1]>[0]> {
  const emit = socket.emit.bind(socket) as (
    name: string,
    body: unknown,
    done: (answer: never) => void,
  ) => void;
  return new Promise((resolve) => emit(event, request, resolve));
}

async function connect(url: string, gameId: string): Promise<RoomsSocket> {
  const socket: RoomsSocket = io(`${url}${ROOMS_NAMESPACE}`, {
    transports: ['websocket'],
    auth: { gameId },
    forceNew: true,
    reconnection: false,
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Connects rooms × 4 guests in batches; the first half of each room's seats on urls[0]. */
export async function connectAll(
  urls: string[],
  count: number,
  gameId: string,
): Promise<RoomsSocket[][]> {
  const urlOf = (seat: number) => urls[seat < PLAYERS / 2 ? 0 : urls.length - 1] ?? '';
  const rooms: RoomsSocket[][] = [];
  for (let start = 0; start < count; start += CONNECT_BATCH / PLAYERS) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(CONNECT_BATCH / PLAYERS, count - start) }, () =>
        Promise.all(Array.from({ length: PLAYERS }, (_, seat) => connect(urlOf(seat), gameId))),
      ),
    );
    rooms.push(...batch);
  }
  return rooms;
}

/** The first socket of each room creates it; the others join by code. */
export async function fillRooms(sockets: RoomsSocket[][]): Promise<Player[][]> {
  const rooms: Player[][] = [];
  for (let start = 0; start < sockets.length; start += 25) {
    rooms.push(
      ...(await Promise.all(
        sockets.slice(start, start + 25).map(async ([first, ...others]) => {
          if (!first) {
            throw new Error('empty room');
          }
          const created = await ack(first, 'room:create', { private: true, maxPlayers: PLAYERS });
          if (!created.ok) {
            throw new Error(`create refused: ${created.error.message}`);
          }
          const players: Player[] = [{ socket: first, playerId: created.seat.playerId }];
          for (const socket of others) {
            const joined = await ack(socket, 'room:join', { code: created.room.code });
            if (!joined.ok) {
              throw new Error(`join refused: ${joined.error.message}`);
            }
            players.push({ socket, playerId: joined.seat.playerId });
          }
          return players;
        }),
      )),
    );
  }
  return rooms;
}

/** Every player sends `perSecond` stamped messages for `seconds`; latencies and deliveries. */

/** Every player sends `perSecond` messages for `seconds`; deliveries and refusals counted. */
export async function background(rooms: Player[][], perSecond: number, seconds: number) {
  let deliveries = 0;
  let refused = 0;
  const players = rooms.flat();
  const offs = players.map(({ socket }) => {
    const count = () => {
      deliveries += 1;
    };
    socket.on('room:message', count);
    return () => socket.off('room:message', count);
  });
  const intervalMs = 1000 / perSecond;
  // one timer per player: a random first delay spreads the sends, then every intervalMs
  const handles = players.map(({ socket }) => {
    const emit = socket.emit.bind(socket) as (
      name: string,
      body: unknown,
      done: (answer: { ok: boolean }) => void,
    ) => void;
    const send = () =>
      emit('room:send', { type: 'move', data: performance.now() }, (answer) => {
        if (!answer.ok) {
          refused += 1;
        }
      });
    const handle: { timer: NodeJS.Timeout | undefined } = { timer: undefined };
    handle.timer = setTimeout(() => {
      send();
      handle.timer = setInterval(send, intervalMs);
    }, Math.random() * intervalMs);
    return handle;
  });
  const started = performance.now();
  await sleep(seconds * 1000);
  handles.forEach((handle) => {
    clearTimeout(handle.timer);
    clearInterval(handle.timer);
  });
  const elapsed = (performance.now() - started) / 1000;
  await sleep(500);
  offs.forEach((off) => off());
  return { deliveries, refused, elapsed };
}

/** The child process: follows the parent's commands. */
function runWorker() {
  const reply = (message: BotsReply) => process.send?.(message);
  let sockets: RoomsSocket[][] = [];
  let rooms: Player[][] = [];
  let gameId = '';
  process.on('message', (command: BotsCommand) => {
    const step = async () => {
      if (command.type === 'connect') {
        gameId = command.gameId;
        sockets = await connectAll(command.urls, command.rooms, gameId);
        reply({ type: 'connected' });
      } else if (command.type === 'fill') {
        rooms = await fillRooms(sockets);
        reply({ type: 'filled' });
      } else if (command.type === 'load') {
        reply({ type: 'loaded', ...(await background(rooms, command.perSecond, command.seconds)) });
      } else {
        sockets.flat().forEach((socket) => socket.disconnect());
        process.exit(0);
      }
    };
    step().catch((error: unknown) =>
      reply({ type: 'failed', error: error instanceof Error ? error.message : String(error) }),
    );
  });
  process.on('disconnect', () => process.exit(0));
}

if (process.env.BENCH_ROOMS_BOTS === '1') {
  runWorker();
}
