import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AdminGameResponse } from '@portfolio/types/game-host';
import type {
  AdminRoomsResponse,
  ChatReportsResponse,
  PublicRoomsResponse,
  RoomEntered,
  RoomView,
} from '@portfolio/types/rooms';
import type { UserDetail } from '@portfolio/types';

import { startTestApp, type TestApp, type TestClient } from '../../test/harness.js';
import { buildPublishedGame, signedInClient } from '../../test/factories.js';
import {
  openRoomsSocket,
  roomsConnected,
  roomsRequest,
  type RoomsTestSocket,
  waitForRoomsEvent,
} from '../../realtime/socket-test-client.js';

/*
 * Rooms through the real app: HTTP for the admin and the lobby, real sockets on /rooms as the
 * site's viewer holds them.
 */

let app: TestApp;
let admin: TestClient;
let gameId: string;
const sockets: RoomsTestSocket[] = [];

beforeAll(async () => {
  app = await startTestApp();
  admin = (await signedInClient(app, 'admin')).client;
  gameId = await buildPublishedGame(admin);
});

afterAll(async () => {
  sockets.forEach((socket) => socket.disconnect());
  await app.stop();
});

/** A connected viewer socket for `gameId` with the client's cookies. */
async function viewer(client: TestClient | null, game = gameId): Promise<RoomsTestSocket> {
  const socket = openRoomsSocket(
    app.url,
    game,
    client?.cookieHeader ? { cookie: client.cookieHeader } : {},
  );
  sockets.push(socket);
  await roomsConnected(socket);
  return socket;
}

function entered(answer: RoomEntered): {
  room: RoomView;
  seat: { playerId: string; seatToken: string };
} {
  if (!answer.ok) {
    throw new Error(`refused: ${answer.error.code} ${answer.error.message}`);
  }
  return answer;
}

async function player() {
  const user = await signedInClient(app, 'user');
  return { ...user, socket: await viewer(user.client) };
}

describe('rooms over /rooms', () => {
  it('lets a second player join a private room by code and relays their moves', async () => {
    const a = await player();
    const b = await player();
    const created = entered(await roomsRequest(a.socket, 'room:create', { private: true }));
    expect(created.room.players).toEqual([
      expect.objectContaining({ name: a.username, isHost: true, isSpectator: false }),
    ]);
    const joinSeen = waitForRoomsEvent(a.socket, 'room:join');
    const joined = entered(
      await roomsRequest(b.socket, 'room:join', { code: created.room.code.toLowerCase() }),
    );
    expect(joined.room.players.map((entry) => entry.name)).toEqual([a.username, b.username]);
    expect((await joinSeen).player.name).toBe(b.username);

    const move = waitForRoomsEvent(b.socket, 'room:message');
    expect(await roomsRequest(a.socket, 'room:send', { type: 'move', data: { x: 3 } })).toEqual({
      ok: true,
    });
    expect(await move).toEqual({ type: 'move', data: { x: 3 }, from: created.seat.playerId });

    // a private room is never in the lobby
    const lobby = await app.client().get<PublicRoomsResponse>(`/api/games/${gameId}/rooms`);
    expect(lobby.status).toBe(200);
    expect(lobby.body.rooms.map((room) => room.code)).not.toContain(created.room.code);
  });

  it('answers bad requests with a clear refusal, never a crash', async () => {
    const a = await player();
    expect(await roomsRequest(a.socket, 'room:join', { code: 'bad' })).toEqual({
      ok: false,
      error: { code: 'BAD_REQUEST', message: 'code: is not a room code' },
    });
    expect(await roomsRequest(a.socket, 'room:send', { type: 'move' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_IN_ROOM' },
    });
    expect(await roomsRequest(a.socket, 'room:join', { code: 'ZZZZZZ' })).toMatchObject({
      ok: false,
      error: { code: 'ROOM_NOT_FOUND', message: 'That room does not exist.' },
    });
    const mine = entered(await roomsRequest(a.socket, 'room:create', {}));
    expect(
      await roomsRequest(a.socket, 'room:send', { type: 'move', data: 'x'.repeat(17 * 1024) }),
    ).toMatchObject({ ok: false, error: { code: 'ROOM_MESSAGE_TOO_LARGE' } });
    // asking for the room one is in again keeps the seat (and the room)
    const again = entered(await roomsRequest(a.socket, 'room:join', { code: mine.room.code }));
    expect(again.seat.playerId).toBe(mine.seat.playerId);
    expect(again.room.players).toHaveLength(1);
  });

  it("keeps a dropped player's seat and gives it back with the seat token", async () => {
    const a = await player();
    const b = await player();
    const created = entered(await roomsRequest(a.socket, 'room:create', { private: true }));
    const joined = entered(await roomsRequest(b.socket, 'room:join', { code: created.room.code }));
    await roomsRequest(a.socket, 'room:setState', { key: 'score', value: 7 });
    const away = waitForRoomsEvent(a.socket, 'room:away');
    b.socket.disconnect();
    expect((await away).player).toMatchObject({ id: joined.seat.playerId, away: true });

    const back = waitForRoomsEvent(a.socket, 'room:back');
    const again = await viewer(b.client);
    const rejoined = entered(
      await roomsRequest(again, 'room:join', {
        code: created.room.code,
        seatToken: joined.seat.seatToken,
      }),
    );
    expect(rejoined.seat.playerId).toBe(joined.seat.playerId);
    expect(rejoined.room.state).toEqual({ score: 7 });
    expect((await back).player.id).toBe(joined.seat.playerId);
  });

  it('lets a spectator watch and refuses its moves', async () => {
    const a = await player();
    const s = await player();
    const created = entered(await roomsRequest(a.socket, 'room:create', {}));
    const watching = entered(
      await roomsRequest(s.socket, 'room:spectate', { code: created.room.code }),
    );
    expect(watching.room.players.find((entry) => entry.name === s.username)?.isSpectator).toBe(
      true,
    );
    const seen = waitForRoomsEvent(s.socket, 'room:message');
    await roomsRequest(a.socket, 'room:send', { type: 'move', data: 1 });
    expect((await seen).data).toBe(1);
    expect(await roomsRequest(s.socket, 'room:send', { type: 'move', data: 2 })).toEqual({
      ok: false,
      error: { code: 'ROOM_SPECTATOR', message: 'Spectators can watch but not play.' },
    });
  });

  it('keeps chat text exactly, takes reports, and a muted player stays muted after reconnecting', async () => {
    const a = await player();
    const b = await player();
    const created = entered(await roomsRequest(a.socket, 'room:create', { private: true }));
    const joined = entered(await roomsRequest(b.socket, 'room:join', { code: created.room.code }));
    const text = '<script>alert(1)</script>';
    const line = waitForRoomsEvent(b.socket, 'chat:message');
    expect(await roomsRequest(a.socket, 'chat:send', { text })).toEqual({ ok: true });
    const received = await line;
    expect(received.text).toBe(text);
    expect(await roomsRequest(b.socket, 'chat:report', { messageId: received.id })).toEqual({
      ok: true,
    });
    const reports = await admin.get<ChatReportsResponse>('/api/admin/chat-reports');
    expect(reports.body.reports.find((report) => report.message.id === received.id)).toMatchObject({
      roomCode: created.room.code,
      author: { name: a.username },
      reporter: { name: b.username },
    });

    const status = waitForRoomsEvent(b.socket, 'chat:status');
    const muted = await admin.put(`/api/admin/users/${b.id}/chat`, {
      status: 'muted',
      reason: 'spam',
    });
    expect(muted.status).toBe(200);
    expect(await status).toEqual({ status: 'muted' });
    expect(await roomsRequest(b.socket, 'chat:send', { text: 'hi' })).toMatchObject({
      ok: false,
      error: { code: 'CHAT_MUTED' },
    });
    b.socket.disconnect();
    const again = await viewer(b.client);
    entered(
      await roomsRequest(again, 'room:join', {
        code: created.room.code,
        seatToken: joined.seat.seatToken,
      }),
    );
    expect(await roomsRequest(again, 'chat:send', { text: 'hi' })).toMatchObject({
      ok: false,
      error: { code: 'CHAT_MUTED', message: 'You cannot use chat right now.' },
    });
    const detail = await admin.get<UserDetail>(`/api/users/${b.id}`);
    expect(detail.body.chat_status).toBe('muted');
    expect(detail.body.history[0]).toMatchObject({
      action: 'chat-status',
      new_value: 'muted: spam',
    });
  });

  it('lets the admin list and close a live room; everyone in it is told', async () => {
    const a = await player();
    const b = await player();
    const created = entered(await roomsRequest(a.socket, 'room:create', { private: true }));
    entered(await roomsRequest(b.socket, 'room:join', { code: created.room.code }));
    const listed = await admin.get<AdminRoomsResponse>(`/api/admin/rooms?gameId=${gameId}`);
    expect(listed.body.rooms.find((room) => room.code === created.room.code)).toMatchObject({
      gameId,
      private: true,
      players: 2,
      spectators: 0,
    });
    expect((await a.client.get('/api/admin/rooms')).status).toBe(403);

    const closedA = waitForRoomsEvent(a.socket, 'room:closed');
    const closedB = waitForRoomsEvent(b.socket, 'room:closed');
    expect((await admin.delete(`/api/admin/rooms/${created.room.code}`)).status).toBe(204);
    expect(await closedA).toEqual({ reason: 'admin' });
    expect(await closedB).toEqual({ reason: 'admin' });
    expect(await roomsRequest(a.socket, 'room:send', { type: 'move' })).toMatchObject({
      ok: false,
      error: { code: 'NOT_IN_ROOM' },
    });
    expect(await roomsRequest(a.socket, 'room:join', { code: created.room.code })).toMatchObject({
      ok: false,
      error: { code: 'ROOM_CLOSED' },
    });
    expect((await admin.delete(`/api/admin/rooms/${created.room.code}`)).status).toBe(404);
  });

  it('refuses guests unless the game allows them, and subscriber games to non-subscribers', async () => {
    const guest = openRoomsSocket(app.url, gameId);
    sockets.push(guest);
    await expect(roomsConnected(guest)).rejects.toMatchObject({
      code: 'ROOMS_SIGN_IN',
      message: 'Sign in to play with others.',
    });
    const open = await buildPublishedGame(admin);
    const saved = await admin.put(`/api/admin/games/${open}/rooms`, {
      guests: true,
      chat: false,
      graceSeconds: 5,
      maxPlayers: 2,
    });
    expect(saved.status).toBe(200);
    const detail = await admin.get<{ games: AdminGameResponse['game'][] }>('/api/admin/games');
    expect(detail.body.games.find((game) => game.id === open)?.rooms).toEqual({
      guests: true,
      chat: false,
      graceSeconds: 5,
      maxPlayers: 2,
    });
    expect((await admin.put(`/api/admin/games/${open}/rooms`, { guests: 'yes' })).status).toBe(400);
    const welcomeGuest = await viewer(null, open);
    const room = entered(await roomsRequest(welcomeGuest, 'room:create', { maxPlayers: 8 }));
    expect(room.room.maxPlayers).toBe(2);
    expect(room.room.players[0]?.name).toMatch(/^Guest \d{4}$/);
    expect(await roomsRequest(welcomeGuest, 'chat:send', { text: 'hello' })).toMatchObject({
      ok: false,
      error: { code: 'CHAT_OFF' },
    });

    const locked = await buildPublishedGame(admin, { access: 'subscriber' });
    const user = await signedInClient(app, 'user');
    const refused = openRoomsSocket(app.url, locked, { cookie: user.client.cookieHeader ?? '' });
    sockets.push(refused);
    await expect(roomsConnected(refused)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    const subscriber = await signedInClient(app, 'subscriber');
    await viewer(subscriber.client, locked);
    const unknown = openRoomsSocket(app.url, 'NoSuchGame', {
      cookie: user.client.cookieHeader ?? '',
    });
    sockets.push(unknown);
    await expect(roomsConnected(unknown)).rejects.toMatchObject({ code: 'GAME_NOT_FOUND' });
  });

  it("puts a demo game player with a room code in that room's own instance", async () => {
    const a = await player();
    const wolf = await viewer(a.client, 'WolfScape');
    const created = entered(await roomsRequest(wolf, 'room:create', { private: true }));
    const play = (room: string) =>
      io(`${app.url}/play/WolfScape`, {
        transports: ['websocket'],
        extraHeaders: { cookie: a.client.cookieHeader ?? '' },
        auth: { room },
        forceNew: true,
        reconnection: false,
      });
    const refused = play('ZZZZZZ');
    const refusal = await new Promise((resolve) =>
      refused.once('connect_error', (error: Error & { data?: unknown }) => resolve(error.data)),
    );
    refused.disconnect();
    expect(refusal).toEqual({ code: 'ROOM_NOT_FOUND', message: 'That room does not exist.' });
    const inRoom = play(created.room.code);
    await new Promise<void>((resolve) => inRoom.once('welcome', () => resolve()));
    const instances = app.deps.multiplayer.servers().get('wolfscape')?.rooms();
    expect(instances?.get(`wolfscape-room-${created.room.code}`)).toBe(1);
    inRoom.disconnect();
  });
});
