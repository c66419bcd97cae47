import { API_ERRORS, isApiErrorCode } from '@portfolio/types/errors';
import {
  CHAT_HISTORY,
  type ChatLine,
  type ChatStatus,
  type PublicRoomSummary,
  RoomCode,
  roomInvitePath,
  type RoomAck,
  type RoomEntered,
  type RoomPlayer,
  type RoomsSdkEvent,
  type RoomView,
} from '@portfolio/types/rooms';

import { isHttpError } from '../../lib/http';
import type { RoomsConnection } from './room-connection';
import { roomError } from './room-connection';

/*
 * The viewer's room client: one per open game. It answers the frame's `GameSDK.rooms` requests
 * (sdk-host.ts hands them over), connects to the room service on the first one, pushes what
 * happens in the room to the frame ('room-event'), keeps the seat token in sessionStorage (per
 * game) and, when Socket.IO reconnects, takes the same seat back and sends the frame a fresh
 * 'room'. The viewer's room bar, lobby and chat read its snapshot and call it too.
 */

/** What the viewer shows: the room this player is in, its chat, and what to tell the player. */
export interface RoomSnapshot {
  /** The game uses rooms (its frame asked at least once, or an invite link was opened). */
  isActive: boolean;
  room: RoomView | null;
  playerId: string | null;
  chat: ChatLine[];
  chatStatus: ChatStatus;
  /** What to tell the player (a closed, full or unknown room, a refusal): a catalogue code. */
  notice: RoomNotice | null;
}

export interface RoomClientOptions {
  gameId: string;
  connect: () => Promise<RoomsConnection>;
  /** Sends one event to the game's frame (or later, setFrameSender). */
  push?: (event: RoomsSdkEvent) => void;
  /** Where the seat token is kept (sessionStorage in the browser). */
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  /** The room code of the invite link this page was opened with (validated here), if any. */
  invitedCode?: string | null;
  /** The site's origin, for the invite link. */
  siteOrigin: string;
  /** The service wants a signed-in player (ROOMS_SIGN_IN). */
  onSignInNeeded?: () => void;
}

type Json = RoomView['state'][string];

export interface RoomNotice {
  code: string;
  message: string;
}

/** The room this tab is in: a player's seat token, or a spectator's room (taken back alike). */
interface StoredSeat {
  code: string;
  seatToken: string;
  isSpectator: boolean;
}

export const ROOM_CLOSED_NOTICE: RoomNotice = {
  code: 'ROOM_CLOSED',
  message: API_ERRORS.ROOM_CLOSED.message,
};

/** What the viewer says for a refusal: the catalogue's message for a room's codes. */
const NOTICE_CODES = new Set(['ROOM_NOT_FOUND', 'ROOM_FULL', 'ROOM_CLOSED', 'ROOMS_SIGN_IN']);

function seatKey(gameId: string): string {
  return `portfolio:room-seat:${gameId}`;
}

function parseCode(value: unknown): string | null {
  const parsed = RoomCode.safeParse(value);
  return parsed.success ? parsed.data : null;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/** An acknowledgement's answer, or its refusal thrown as an HttpError. */
function accepted<T extends object>(answer: RoomAck<T>): { ok: true } & T {
  if (!answer.ok) {
    throw roomError(answer.error.code, answer.error.message);
  }
  return answer;
}

export type RoomClient = ReturnType<typeof createRoomClient>;

export function createRoomClient(options: RoomClientOptions) {
  const { gameId, storage } = options;
  const invitedCode = parseCode(options.invitedCode ?? null);
  let snapshot: RoomSnapshot = {
    isActive: invitedCode !== null,
    room: null,
    playerId: null,
    chat: [],
    chatStatus: 'allowed',
    notice: null,
  };
  const listeners = new Set<() => void>();
  let push = options.push ?? (() => undefined);
  let connecting: Promise<RoomsConnection> | null = null;
  /** Grows on close(): a connection that opens after it is closed at once. */
  let generation = 0;

  const update = (change: Partial<RoomSnapshot>) => {
    snapshot = { ...snapshot, ...change };
    for (const listener of listeners) {
      listener();
    }
  };

  const readSeat = (): StoredSeat | null => {
    try {
      const stored: unknown = JSON.parse(storage.getItem(seatKey(gameId)) ?? 'null');
      return isRecord(stored) &&
        typeof stored.code === 'string' &&
        typeof stored.seatToken === 'string'
        ? {
            code: stored.code,
            seatToken: stored.seatToken,
            isSpectator: stored.isSpectator === true,
          }
        : null;
    } catch {
      return null;
    }
  };
  const writeSeat = (seat: StoredSeat | null) => {
    try {
      if (seat) {
        storage.setItem(seatKey(gameId), JSON.stringify(seat));
      } else {
        storage.removeItem(seatKey(gameId));
      }
    } catch {
      // storage refused (private mode): a reconnect still works while the page lives
    }
  };
  let seat: StoredSeat | null = readSeat();

  const pushRoom = () =>
    push({
      event: 'room',
      payload: { room: snapshot.room, playerId: snapshot.playerId },
    });

  /** Out of the room (left, closed, seat lost): the frame hears `closed` when it was not asked. */
  const leaveRoom = (notice: RoomNotice | null, reason?: string) => {
    seat = null;
    writeSeat(null);
    update({ room: null, playerId: null, chat: [], notice });
    if (reason) {
      push({ event: 'closed', payload: { reason } });
    }
    pushRoom();
  };

  const updatePlayers = (change: (players: RoomPlayer[]) => RoomPlayer[]) => {
    if (snapshot.room) {
      update({ room: { ...snapshot.room, players: change(snapshot.room.players) } });
    }
  };
  const withPlayer = (player: RoomPlayer) => (players: RoomPlayer[]) =>
    players.some((seen) => seen.id === player.id)
      ? players.map((seen) => (seen.id === player.id ? player : seen))
      : [...players, player];

  const enter = (answer: RoomEntered) => {
    const { room, seat: taken } = accepted(answer);
    const isSpectator =
      room.players.find((player) => player.id === taken.playerId)?.isSpectator === true;
    seat = { code: room.code, seatToken: taken.seatToken, isSpectator };
    writeSeat(seat);
    update({ room, playerId: taken.playerId, chat: [], notice: null });
    pushRoom();
    return { room, playerId: taken.playerId };
  };

  /** Takes the same seat back after Socket.IO reconnected. */
  const rejoin = async (connection: RoomsConnection) => {
    if (!seat || !snapshot.room) {
      return;
    }
    try {
      enter(
        seat.isSpectator
          ? await connection.request('room:spectate', { code: seat.code })
          : await connection.request('room:join', { code: seat.code, seatToken: seat.seatToken }),
      );
    } catch (error) {
      // the room went away (closed, or the grace period ran out and it emptied)
      const code = isHttpError(error) ? error.code : '';
      if (code === 'SERVICE_UNAVAILABLE') {
        return;
      }
      leaveRoom(ROOM_CLOSED_NOTICE, 'gone');
    }
  };

  const listen = (connection: RoomsConnection) => {
    connection.onConnect((isReconnect) => {
      if (isReconnect) {
        void rejoin(connection);
      }
    });
    connection.onRefused((error) => {
      if (error.code === 'ROOMS_SIGN_IN') {
        options.onSignInNeeded?.();
      }
      update({ notice: { code: error.code, message: error.message } });
    });
    connection.on('room:message', (payload) => push({ event: 'message', payload }));
    connection.on('room:join', ({ player }) => {
      updatePlayers(withPlayer(player));
      push({ event: 'join', payload: { player } });
    });
    connection.on('room:away', ({ player }) => {
      updatePlayers(withPlayer(player));
      push({ event: 'away', payload: { player } });
    });
    connection.on('room:back', ({ player }) => {
      updatePlayers(withPlayer(player));
      push({ event: 'back', payload: { player } });
    });
    connection.on('room:host', ({ player }) => {
      updatePlayers((players) =>
        players.map((seen) => ({ ...seen, isHost: seen.id === player.id })),
      );
      push({ event: 'host', payload: { player } });
    });
    connection.on('room:leave', ({ player, reason }) => {
      if (player.id === snapshot.playerId) {
        leaveRoom(reason === 'closed' ? ROOM_CLOSED_NOTICE : null, reason);
        return;
      }
      updatePlayers((players) => players.filter((seen) => seen.id !== player.id));
      push({ event: 'leave', payload: { player } });
    });
    connection.on('room:state', (payload) => {
      if (snapshot.room) {
        const state = { ...snapshot.room.state };
        // JSON from the service (validated there): stored as the room holds it
        state[payload.key] = payload.value as Json;
        update({ room: { ...snapshot.room, state } });
      }
      push({ event: 'state', payload });
    });
    connection.on('room:closed', ({ reason }) => leaveRoom(ROOM_CLOSED_NOTICE, reason));
    connection.on('chat:message', (line) => {
      update({ chat: [...snapshot.chat, line].slice(-CHAT_HISTORY) });
    });
    connection.on('chat:status', ({ status }) => update({ chatStatus: status }));
  };

  const connection = (): Promise<RoomsConnection> => {
    const asked = generation;
    connecting ??= options.connect().then(
      (opened) => {
        if (asked === generation) {
          listen(opened);
        } else {
          opened.close();
        }
        return opened;
      },
      (error: unknown) => {
        connecting = null;
        throw error;
      },
    );
    return connecting;
  };

  /** Runs a request; a room refusal is shown in the viewer too, then rethrown. */
  const perform = async <T>(run: (connection: RoomsConnection) => Promise<T>): Promise<T> => {
    update({ isActive: true });
    try {
      return await run(await connection());
    } catch (error) {
      if (isHttpError(error) && NOTICE_CODES.has(error.code)) {
        if (error.code === 'ROOMS_SIGN_IN') {
          options.onSignInNeeded?.();
        }
        const message = isApiErrorCode(error.code) ? API_ERRORS[error.code].message : error.message;
        update({ notice: { code: error.code, message } });
      }
      throw error;
    }
  };

  const inviteUrl = (code: string) => `${options.siteOrigin}${roomInvitePath(gameId, code)}`;

  const client = {
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    /** Where events for the game go: its frame, once the viewer has it. */
    setFrameSender: (sender: (event: RoomsSdkEvent) => void) => {
      push = sender;
    },
    getSnapshot: () => snapshot,
    inviteUrl,
    /** Shows the viewer's room bar (an invite link was opened: connects to learn if it may). */
    activate: () => {
      update({ isActive: true });
      return connection().then(
        () => undefined,
        () => undefined,
      );
    },
    dismissNotice: () => update({ notice: null }),
    create: (request: { private?: boolean; maxPlayers?: number }) =>
      perform(async (open) => {
        const entered = enter(await open.request('room:create', request));
        return { ...entered, inviteUrl: inviteUrl(entered.room.code) };
      }),
    join: (code: string) =>
      perform(async (open) => {
        const wanted = parseCode(code);
        if (!wanted) {
          throw roomError('ROOM_NOT_FOUND');
        }
        const seatToken = seat?.code === wanted && !seat.isSpectator ? seat.seatToken : undefined;
        return enter(await open.request('room:join', { code: wanted, seatToken }));
      }),
    quickJoin: () => perform(async (open) => enter(await open.request('room:quickJoin', {}))),
    spectate: (code: string) =>
      perform(async (open) => {
        const wanted = parseCode(code);
        if (!wanted) {
          throw roomError('ROOM_NOT_FOUND');
        }
        return enter(await open.request('room:spectate', { code: wanted }));
      }),
    leave: () =>
      perform(async (open) => {
        accepted(await open.request('room:leave', {}));
        leaveRoom(null);
        return {};
      }),
    list: () =>
      perform(async (open): Promise<PublicRoomSummary[]> => {
        return accepted(await open.request('room:list', {})).rooms;
      }),
    sendChat: (text: string) =>
      perform(async (open) => {
        accepted(await open.request('chat:send', { text }));
      }),
    reportChat: (messageId: string) =>
      perform(async (open) => {
        accepted(await open.request('chat:report', { messageId }));
      }),
    /** One `GameSDK.rooms` request from the frame: its answer, or a thrown refusal. */
    handleSdk: (payload: unknown): Promise<unknown> =>
      handleSdkRequest(client, payload, invitedCode),
    /** Closes the connection (the viewer closed); a later request opens a new one. */
    close: () => {
      const closing = connecting;
      connecting = null;
      generation += 1;
      void closing?.then(
        (opened) => opened.close(),
        () => undefined,
      );
    },
    /** For the SDK's requests that only the service answers. */
    request: <T extends object>(
      run: (connection: RoomsConnection) => Promise<RoomAck<T>>,
    ): Promise<{ ok: true } & T> => perform(async (open) => accepted(await run(open))),
  };
  return client;
}

/** Only what a request names, checked: the frame's payload is another origin's data. */
async function handleSdkRequest(
  client: RoomClient,
  payload: unknown,
  invitedCode: string | null,
): Promise<unknown> {
  if (!isRecord(payload) || typeof payload.op !== 'string') {
    throw roomError('BAD_REQUEST', 'op: is required');
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  // structured-cloned data from the frame: the service checks it is JSON of an allowed size
  const json = (value: unknown) => (value === undefined ? null : value) as Json;
  switch (payload.op) {
    case 'invited':
      return { code: invitedCode };
    case 'create': {
      const maxPlayers = typeof payload.maxPlayers === 'number' ? payload.maxPlayers : undefined;
      return client.create({ private: payload.private === true, maxPlayers });
    }
    case 'join':
      return client.join(text(payload.code));
    case 'quickJoin':
      return client.quickJoin();
    case 'spectate':
      return client.spectate(text(payload.code));
    case 'leave':
      return client.leave();
    case 'send':
      await client.request((open) =>
        open.request('room:send', {
          type: text(payload.type),
          data: json(payload.data),
          to: typeof payload.to === 'string' ? payload.to : undefined,
        }),
      );
      return {};
    case 'setState':
      await client.request((open) =>
        open.request('room:setState', { key: text(payload.key), value: json(payload.value) }),
      );
      return {};
    case 'cas': {
      const answer = await client.request((open) =>
        open.request('room:cas', {
          key: text(payload.key),
          expected: json(payload.expected),
          value: json(payload.value),
        }),
      );
      return { swapped: answer.swapped };
    }
    default:
      throw roomError('BAD_REQUEST', `op: '${payload.op}' is not a rooms request`);
  }
}
