import { performance } from 'node:perf_hooks';

import type { Namespace, Socket } from 'socket.io';

import type { CurrentUser } from '@portfolio/types';

/** What a game socket carries after the handshake. */
export interface PlayerSocketData {
  user: CurrentUser;
  room?: string;
  playerId?: number;
  /** A private room's code (rooms service), checked at the handshake: that instance, no other. */
  roomCode?: string;
}

/**
 * One room's simulation. The game server owns rooms, sockets and the clock; a simulation only
 * holds state, applies validated input and says what changed.
 */
export interface RoomSimulation<Welcome, Update> {
  /** Adds a player; returns its id and what the newcomer needs to draw the room. */
  addPlayer(user: CurrentUser): { playerId: number; welcome: Welcome };
  removePlayer(playerId: number): void;
  /** Applies one input event; false when the payload is not valid (it is then ignored). */
  handleInput(playerId: number, payload: unknown): boolean;
  /** Advances the simulation by `dtSeconds`; returns what changed since the last tick, if anything. */
  tick(dtSeconds: number): Update | undefined;
}

export interface GameServerOptions<Welcome, Update> {
  /** The catalogue's server type ('wolfscape', 'rocketGame'). */
  serverType: string;
  /** Simulation steps per second. */
  tickRate: number;
  /** Players per room; a full room makes the next player start a new one. */
  roomCapacity: number;
  /** `roomNumber` counts rooms from 1; simulations use it to spread their broadcasts over ticks. */
  createRoom(roomId: string, roomNumber: number): RoomSimulation<Welcome, Update>;
  /** The client → server input event name. */
  inputEvent: string;
  /** Input events a socket may send per second; more are dropped (a flood costs no simulation). */
  maxInputsPerSecond?: number;
}

interface Room<Welcome, Update> {
  id: string;
  simulation: RoomSimulation<Welcome, Update>;
  players: number;
  /** An instance of a private room (keyed by its code): a plain join never lands in it. */
  isPrivate: boolean;
}

export interface TickStats {
  /** Wall-clock durations (ms) of the ticks since the last reset. */
  durations: number[];
  ticks: number;
}

export interface GameServer {
  readonly serverType: string;
  /** Whether the tick loop runs and ticked recently (at most 10 intervals, at least 1 s, ago). */
  isHealthy(): boolean;
  /** Room id → players, for tests and the benchmark. */
  rooms(): Map<string, number>;
  /** Tick durations since the last call (the benchmark's figures). */
  takeTickStats(): TickStats;
  /** Stops the tick loop (shutdown; tests use it to see health go down). */
  stopLoop(): void;
  close(): void;
}

type AnySocket = Socket<
  Record<string, (payload: unknown) => void>,
  Record<string, (payload: unknown) => void>,
  Record<string, never>,
  PlayerSocketData
>;

/**
 * An authoritative game server on one Socket.IO namespace: players join the least-full room
 * with space (a new room when all are full), send input events only, and every tick each room's
 * simulation advances and its changes go to that room in one message.
 */
export function createGameServer<Welcome, Update>(
  namespace: Namespace,
  options: GameServerOptions<Welcome, Update>,
): GameServer {
  const rooms = new Map<string, Room<Welcome, Update>>();
  const intervalMs = 1000 / options.tickRate;
  const maxInputs = options.maxInputsPerSecond ?? 30;
  let nextRoom = 1;
  let lastTickAt = performance.now();
  let lastTickStarted = lastTickAt;
  let durations: number[] = [];
  let ticks = 0;
  let timer: NodeJS.Timeout | undefined;

  function newRoom(id: string, isPrivate: boolean): Room<Welcome, Update> {
    const room = { id, simulation: options.createRoom(id, nextRoom++), players: 0, isPrivate };
    rooms.set(id, room);
    return room;
  }

  /** A private room's instance (made on first use; undefined when full), else the least full. */
  function pickRoom(roomCode: string | undefined): Room<Welcome, Update> | undefined {
    if (roomCode !== undefined) {
      const id = `${options.serverType}-room-${roomCode}`;
      const room = rooms.get(id) ?? newRoom(id, true);
      return room.players < options.roomCapacity ? room : undefined;
    }
    let best: Room<Welcome, Update> | undefined;
    for (const room of rooms.values()) {
      if (
        !room.isPrivate &&
        room.players < options.roomCapacity &&
        (!best || room.players < best.players)
      ) {
        best = room;
      }
    }
    return best ?? newRoom(`${options.serverType}-${nextRoom}`, false);
  }

  function tick() {
    const started = performance.now();
    const dt = Math.min(0.25, (started - lastTickStarted) / 1000);
    lastTickStarted = started;
    for (const room of rooms.values()) {
      const update = room.simulation.tick(dt);
      if (update !== undefined) {
        // rooms live in this process: with the Redis adapter, `local` keeps updates off Redis
        namespace.local.to(room.id).emit('u', update);
      }
    }
    lastTickAt = performance.now();
    ticks++;
    if (durations.length < 100_000) {
      durations.push(lastTickAt - started);
    }
  }

  namespace.on('connection', (rawSocket) => {
    const socket = rawSocket as unknown as AnySocket;
    const room = pickRoom(socket.data.roomCode);
    if (!room) {
      socket.emit('refused', { code: 'ROOM_FULL', message: 'That room is full.' });
      socket.disconnect(true);
      return;
    }
    const { playerId, welcome } = room.simulation.addPlayer(socket.data.user);
    room.players++;
    socket.data.room = room.id;
    socket.data.playerId = playerId;
    void socket.join(room.id);
    socket.emit('welcome', welcome);

    let windowStart = performance.now();
    let inWindow = 0;
    socket.on(options.inputEvent, (payload: unknown) => {
      const now = performance.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        inWindow = 0;
      }
      if (++inWindow > maxInputs) {
        return;
      }
      // an invalid payload is ignored: the simulation validates and leaves its state alone
      room.simulation.handleInput(playerId, payload);
    });
    socket.on('disconnect', () => {
      room.simulation.removePlayer(playerId);
      room.players--;
      if (room.players === 0) {
        rooms.delete(room.id);
      }
    });
  });

  function startLoop() {
    lastTickAt = performance.now();
    lastTickStarted = lastTickAt;
    timer = setInterval(tick, intervalMs);
    timer.unref();
  }
  startLoop();

  const server: GameServer = {
    serverType: options.serverType,
    isHealthy() {
      const staleAfterMs = Math.max(1000, intervalMs * 10);
      return timer !== undefined && performance.now() - lastTickAt <= staleAfterMs;
    },
    rooms: () => new Map([...rooms.values()].map((room) => [room.id, room.players])),
    takeTickStats() {
      const stats = { durations, ticks };
      durations = [];
      ticks = 0;
      return stats;
    },
    stopLoop() {
      clearInterval(timer);
      timer = undefined;
    },
    close() {
      server.stopLoop();
      namespace.disconnectSockets(true);
      rooms.clear();
    },
  };
  return server;
}
