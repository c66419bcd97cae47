import { randomUUID } from 'node:crypto';

import {
  ROOM_MESSAGES_BURST,
  ROOM_MESSAGES_PER_SECOND,
  type AdminRoom,
  type ChatReport,
  type ChatStatus,
  type GameRoomSettings,
  type PublicRoomSummary,
  type SetChatStatusRequest,
} from '@portfolio/types/rooms';

import type { Db } from '../../db/client.js';
import type { Actor } from '../../access/audit.js';
import { recordGameAudit } from '../../access/game-audit.js';
import { HttpError } from '../../lib/errors.js';
import { moduleLogger } from '../../lib/logger.js';
import type { GameCatalogue } from '../game-host/index.js';
import {
  chatStatusOf,
  createChatLimiter,
  listChatReports,
  reportChat,
  sendChat,
  setChatStatus,
} from './commands/chat.js';
import { createRoom, type Entered, joinRoom, quickJoin } from './commands/enter.js';
import { closeRoom, dropFromRoom, leaveRoom, sweepRooms } from './commands/leave.js';
import { compareAndSet, createMessageLimiter, sendMessage, setState } from './commands/relay.js';
import { roomSettingsOf, setRoomSettings } from './commands/settings.js';
import {
  type RoomConnection,
  type RoomGame,
  type RoomIdentity,
  type RoomMember,
  type RoomsContext,
  type RoomsEmitter,
  roomError,
  seatedPlayers,
} from './context.js';
import type { RoomStore } from './store.js';

const log = moduleLogger('rooms');

/** How often the sweep frees seats whose grace ended (and this replica says it is alive). */
export const ROOM_SWEEP_INTERVAL_MS = 2000;
/** A replica not heard of for this long has its seats treated as dropped. */
const REPLICA_TTL_MS = 15_000;

/** Rooms for any game (issue 38): the socket namespace and the admin's routes use this. */
export interface RoomService {
  /** Connects the service to Socket.IO (realtime/rooms-namespace.ts). */
  attachEmitter(emitter: RoomsEmitter): void;
  settingsOf(gameId: string): GameRoomSettings;
  setSettings(gameId: string, settings: GameRoomSettings, actor: Actor): Promise<GameRoomSettings>;
  create(
    game: RoomGame,
    who: RoomIdentity,
    connection: RoomConnection,
    request: { private: boolean; maxPlayers?: number | undefined },
  ): Promise<Entered>;
  join(
    game: RoomGame,
    who: RoomIdentity,
    connection: RoomConnection,
    request: { code: string; seatToken?: string | undefined },
  ): Promise<Entered>;
  quickJoin(game: RoomGame, who: RoomIdentity, connection: RoomConnection): Promise<Entered>;
  spectate(
    game: RoomGame,
    who: RoomIdentity,
    connection: RoomConnection,
    code: string,
  ): Promise<Entered>;
  leave(member: RoomMember): Promise<void>;
  /** The member's socket dropped (seat held for the grace period). */
  dropped(member: RoomMember): Promise<void>;
  send(
    member: RoomMember,
    request: { type: string; data?: unknown; to?: string | undefined },
  ): void;
  setState(member: RoomMember, request: { key: string; value: unknown }): Promise<void>;
  compareAndSet(
    member: RoomMember,
    request: { key: string; expected: unknown; value: unknown },
  ): Promise<boolean>;
  chat(member: RoomMember, text: string): Promise<void>;
  reportChat(member: RoomMember, messageId: string): Promise<void>;
  chatStatusOf(userId: string | null): Promise<ChatStatus>;
  setChatStatus(userId: string, request: SetChatStatusRequest, actor: Actor): Promise<ChatStatus>;
  chatReports(): Promise<ChatReport[]>;
  /** Recent chat lines of a room (a newcomer's history). */
  chatHistory(
    code: string,
  ): Promise<Array<{ id: string; from: { id: string; name: string }; text: string; at: string }>>;
  listPublic(gameId: string): Promise<PublicRoomSummary[]>;
  listAll(gameId?: string): Promise<AdminRoom[]>;
  /** Whether a live room of this game has this code (the demo games' private instances). */
  exists(gameId: string, code: string): Promise<boolean>;
  close(code: string, actor: Actor): Promise<void>;
  sweep(): Promise<void>;
  start(): void;
  /** Stops the sweep and closes the store, once a round in flight is done (before Redis closes). */
  stop(): Promise<void>;
}

const NO_EMITTER: RoomsEmitter = {
  toRoom: () => undefined,
  toPlayer: () => undefined,
  toChat: () => undefined,
  closeRoom: () => undefined,
  chatStatusChanged: () => undefined,
};

/**
 * The sweep on a timer: one round at a time, skipped while the store is not ready; stopping
 * waits for a round in flight, then closes the store (before Redis closes).
 */
function createSweeper(context: RoomsContext): Pick<RoomService, 'sweep' | 'start' | 'stop'> {
  let timer: NodeJS.Timeout | undefined;
  let sweeping: Promise<void> | undefined;
  const sweep = () => {
    if (!context.store.isReady()) {
      return Promise.resolve();
    }
    sweeping ??= (async () => {
      try {
        await context.store.touchReplica(context.replicaId, REPLICA_TTL_MS);
        await sweepRooms(context);
      } catch (error) {
        log.warn({ err: error }, 'sweep failed');
      } finally {
        sweeping = undefined;
      }
    })();
    return sweeping;
  };
  return {
    sweep,
    start() {
      void sweep();
      timer = setInterval(() => void sweep(), ROOM_SWEEP_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      await sweeping;
      await context.store.close();
    },
  };
}

export function createRoomService(deps: {
  db: Db;
  store: RoomStore;
  catalogue: GameCatalogue;
  now?: () => number;
  replicaId?: string;
}): RoomService {
  let emitter = NO_EMITTER;
  const now = deps.now ?? Date.now;
  const context: RoomsContext = {
    db: deps.db,
    store: deps.store,
    now,
    replicaId: deps.replicaId ?? randomUUID(),
    emitter: () => emitter,
    settingsOf: (gameId) => roomSettingsOf(deps.catalogue, gameId),
  };
  const messages = createMessageLimiter(ROOM_MESSAGES_PER_SECOND, ROOM_MESSAGES_BURST, now);
  const chatLimiter = createChatLimiter(now);
  const rated = (member: RoomMember) => {
    if (!messages.take(member.playerId)) {
      throw roomError(
        'RATE_LIMITED',
        `At most ${ROOM_MESSAGES_PER_SECOND} game messages a second (${ROOM_MESSAGES_BURST} at once).`,
      );
    }
  };
  const sweeper = createSweeper(context);

  const summaries = async (codes: string[]) =>
    (await deps.store.getMany(codes)).map(({ room, seats }) => ({
      room,
      players: seatedPlayers(seats).length,
      spectators: seats.length - seatedPlayers(seats).length,
      host: seats.find((seat) => seat.playerId === room.hostId),
    }));

  return {
    attachEmitter(next) {
      emitter = next;
    },
    settingsOf: context.settingsOf,
    setSettings: (gameId, settings, actor) =>
      setRoomSettings({ db: deps.db, catalogue: deps.catalogue }, gameId, settings, actor),
    create: (game, who, connection, request) => createRoom(context, game, who, connection, request),
    join: (game, who, connection, request) => joinRoom(context, game, who, connection, request),
    quickJoin: (game, who, connection) => quickJoin(context, game, who, connection),
    spectate: (game, who, connection, code) =>
      joinRoom(context, game, who, connection, { code, isSpectator: true }),
    async leave(member) {
      messages.forget(member.playerId);
      await leaveRoom(context, member);
    },
    async dropped(member) {
      messages.forget(member.playerId);
      await dropFromRoom(context, member);
    },
    send(member, request) {
      rated(member);
      sendMessage(context, member, request);
    },
    setState(member, request) {
      rated(member);
      return setState(context, member, request);
    },
    compareAndSet(member, request) {
      rated(member);
      return compareAndSet(context, member, request);
    },
    chat: (member, text) => sendChat(context, member, text, chatLimiter),
    reportChat: (member, messageId) => reportChat(context, member, messageId),
    chatStatusOf: (userId) => chatStatusOf(context, userId),
    setChatStatus: (userId, request, actor) => setChatStatus(context, userId, request, actor),
    chatReports: () => listChatReports(context),
    async chatHistory(code) {
      return (await deps.store.chat(code)).map(({ id, from, text, at }) => ({
        id,
        from,
        text,
        at,
      }));
    },
    async listPublic(gameId) {
      return (await summaries(await deps.store.listPublic(gameId)))
        .filter(({ room }) => !room.isPrivate)
        .sort((a, b) => a.room.createdAt - b.room.createdAt)
        .map(({ room, players, spectators, host }) => ({
          code: room.code,
          hostName: host?.name ?? '',
          players,
          spectators,
          maxPlayers: room.maxPlayers,
          createdAt: new Date(room.createdAt).toISOString(),
        }));
    },
    async listAll(gameId) {
      return (await summaries(await deps.store.listCodes()))
        .filter(({ room }) => gameId === undefined || room.gameId === gameId)
        .sort((a, b) => a.room.createdAt - b.room.createdAt)
        .map(({ room, players, spectators }) => ({
          code: room.code,
          gameId: room.gameId,
          private: room.isPrivate,
          players,
          spectators,
          maxPlayers: room.maxPlayers,
          createdAt: new Date(room.createdAt).toISOString(),
        }));
    },
    async exists(gameId, code) {
      return (await deps.store.get(code))?.room.gameId === gameId;
    },
    async close(code, actor) {
      const closed = await closeRoom(context, code);
      if (!closed) {
        throw new HttpError('ROOM_NOT_FOUND', `No live room '${code}'`);
      }
      await recordGameAudit(deps.db, {
        action: 'room-close',
        actor,
        gameId: closed.room.gameId,
        detail: `Room ${code} closed (${seatedPlayers(closed.seats).length} players)`,
      });
    },
    ...sweeper,
  };
}
