import { API_ERRORS, isApiErrorCode } from '@portfolio/types/errors';
import {
  type PublicRoomSummary,
  RoomCode,
  roomInvitePath,
  type RoomAck,
  type RoomsSdkEvent,
} from '@portfolio/types/rooms';

import { isHttpError } from '../../lib/http';
import { roomError, type RoomsConnection } from './room-connection';
import {
  accepted,
  isRecord,
  type Json,
  listenToRoom,
  RoomState,
  type SeatStorage,
} from './room-state';

export { ROOM_CLOSED_NOTICE, type RoomNotice, type RoomSnapshot } from './room-state';

/*
 * The viewer's room client: one per open game. It answers the frame's `GameSDK.rooms` requests
 * (sdk-host.ts hands them over), connects to the room service on the first one, pushes what
 * happens in the room to the frame ('room-event'), keeps the seat token in sessionStorage (per
 * game) and, when Socket.IO reconnects, takes the same seat back and sends the frame a fresh
 * 'room'. The viewer's room bar, lobby and chat read its snapshot and call it too.
 */

export interface RoomClientOptions {
  gameId: string;
  connect: () => Promise<RoomsConnection>;
  /** Sends one event to the game's frame (or later, setFrameSender). */
  push?: (event: RoomsSdkEvent) => void;
  /** Where the seat token is kept (sessionStorage in the browser). */
  storage: SeatStorage;
  /** The room code of the invite link this page was opened with (validated here), if any. */
  invitedCode?: string | null;
  /** The site's origin, for the invite link. */
  siteOrigin: string;
  /** The service wants a signed-in player (ROOMS_SIGN_IN). */
  onSignInNeeded?: () => void;
}

/** What the viewer says for a refusal: the catalogue's message for a room's codes. */
const NOTICE_CODES = new Set(['ROOM_NOT_FOUND', 'ROOM_FULL', 'ROOM_CLOSED', 'ROOMS_SIGN_IN']);

function parseCode(value: unknown): string | null {
  const parsed = RoomCode.safeParse(value);
  return parsed.success ? parsed.data : null;
}

export type RoomClient = ReturnType<typeof createRoomClient>;

export function createRoomClient(options: RoomClientOptions) {
  const { gameId } = options;
  const invitedCode = parseCode(options.invitedCode ?? null);
  const state = new RoomState(
    options.storage,
    `portfolio:room-seat:${gameId}`,
    invitedCode !== null,
  );
  if (options.push) {
    state.push = options.push;
  }
  let connecting: Promise<RoomsConnection> | null = null;
  /** Grows on close(): a connection that opens after it is closed at once. */
  let generation = 0;
  const update = state.update.bind(state);
  const enter = state.enter.bind(state);
  const listen = (connection: RoomsConnection) =>
    listenToRoom(connection, state, (error) => {
      if (error.code === 'ROOMS_SIGN_IN') {
        options.onSignInNeeded?.();
      }
      update({ notice: { code: error.code, message: error.message } });
    });

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
    subscribe: state.subscribe,
    /** Where events for the game go: its frame, once the viewer has it. */
    setFrameSender: (sender: (event: RoomsSdkEvent) => void) => {
      state.push = sender;
    },
    getSnapshot: state.getSnapshot,
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
        const { seat } = state;
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
        state.leave(null);
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
    handleSdk: (payload: unknown): Promise<unknown> => {
      // the game uses rooms (even if it only asked for its invite): the viewer shows the bar
      if (!state.snapshot.isActive) {
        update({ isActive: true });
      }
      return handleSdkRequest(client, payload, invitedCode);
    },
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
