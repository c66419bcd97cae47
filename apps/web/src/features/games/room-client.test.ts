import type {
  RoomAck,
  RoomPlayer,
  RoomsSdkEvent,
  RoomsServerToClientEvents,
  RoomView,
} from '@portfolio/types/rooms';
import { describe, expect, it } from 'vitest';

import { isHttpError } from '../../lib/http';
import { createRoomClient } from './room-client';
import type { RoomsConnection } from './room-connection';

/*
 * The viewer's room client against a fake connection: what it sends the service, what it keeps
 * in sessionStorage, and what the game's frame hears, across a dropped connection.
 */

function player(id: string, change: Partial<RoomPlayer> = {}): RoomPlayer {
  return { id, name: `Player ${id}`, isHost: false, isSpectator: false, away: false, ...change };
}

function view(code: string, players: RoomPlayer[]): RoomView {
  return {
    code,
    gameId: 'Board',
    private: true,
    maxPlayers: 4,
    players,
    state: {},
    chat: true,
    createdAt: '2026-12-07T00:00:00.000Z',
  };
}

type Answer = (event: string, payload: unknown) => RoomAck<object>;

/** A connection whose service answers with `answer`, and which the test can drop and restore. */
function fakeConnection(answer: Answer) {
  const sent: { event: string; payload: unknown }[] = [];
  const handlers = new Map<string, (payload: never) => void>();
  let onConnect: (isReconnect: boolean) => void = () => undefined;
  let closed = 0;
  const connection: RoomsConnection = {
    on(event, listener) {
      handlers.set(event, listener);
    },
    onConnect(listener) {
      onConnect = listener;
    },
    onRefused() {},
    request(event, payload) {
      sent.push({ event, payload });
      // the fake answers every event with what the test's service says
      return Promise.resolve(answer(event, payload) as never);
    },
    close() {
      closed += 1;
    },
  };
  return {
    connection,
    sent,
    reconnect: () => onConnect(true),
    emit<E extends keyof RoomsServerToClientEvents>(
      event: E,
      payload: Parameters<RoomsServerToClientEvents[E]>[0],
    ) {
      handlers.get(event)?.(payload as never);
    },
    closedCount: () => closed,
  };
}

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
    items,
  };
}

function setUp(
  answer: Answer,
  options: { invitedCode?: string; storage?: ReturnType<typeof memoryStorage> } = {},
) {
  const fake = fakeConnection(answer);
  const pushed: RoomsSdkEvent[] = [];
  const storage = options.storage ?? memoryStorage();
  const client = createRoomClient({
    gameId: 'Board',
    connect: () => Promise.resolve(fake.connection),
    push: (event) => pushed.push(event),
    storage,
    invitedCode: options.invitedCode,
    siteOrigin: 'https://site.example',
  });
  return { client, fake, pushed, storage };
}

/** A 'room' event as its room's code and the player's id (other events as their name). */
function summaryOf(event: RoomsSdkEvent) {
  return event.event === 'room'
    ? { event: 'room', code: event.payload.room?.code ?? null, playerId: event.payload.playerId }
    : { event: event.event };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

const entered = (code: string, me: RoomPlayer, others: RoomPlayer[] = []) => ({
  ok: true as const,
  room: view(code, [me, ...others]),
  seat: { playerId: me.id, seatToken: `token-of-${me.id}` },
});

describe('the room client', () => {
  it('creates a room, keeps the seat token for this game and gives the game an invite link', async () => {
    const { client, fake, pushed, storage } = setUp(() =>
      entered('ABCDEF', player('a', { isHost: true })),
    );

    const answer = await client.handleSdk({ op: 'create', private: true, maxPlayers: 2 });

    expect(fake.sent).toEqual([
      { event: 'room:create', payload: { private: true, maxPlayers: 2 } },
    ]);
    expect(answer).toMatchObject({
      playerId: 'a',
      room: { code: 'ABCDEF' },
      inviteUrl: 'https://site.example/games?play=Board&room=ABCDEF',
    });
    expect(JSON.parse(storage.items.get('portfolio:room-seat:Board') ?? 'null')).toEqual({
      code: 'ABCDEF',
      seatToken: 'token-of-a',
      isSpectator: false,
    });
    expect(pushed.map(summaryOf)).toEqual([{ event: 'room', code: 'ABCDEF', playerId: 'a' }]);
  });

  it('takes the same seat back with its token when the connection comes back, and tells the game', async () => {
    const { client, fake, pushed } = setUp((event) =>
      event === 'room:join'
        ? entered('ABCDEF', player('b'), [player('a', { isHost: true })])
        : { ok: false, error: { code: 'BAD_REQUEST', message: 'unexpected' } },
    );
    await client.join('abcdef');
    pushed.length = 0;

    fake.reconnect();
    await flush();

    expect(fake.sent.at(-1)).toEqual({
      event: 'room:join',
      payload: { code: 'ABCDEF', seatToken: 'token-of-b' },
    });
    expect(pushed.map(summaryOf)).toEqual([{ event: 'room', code: 'ABCDEF', playerId: 'b' }]);
    expect(client.getSnapshot().room?.code).toBe('ABCDEF');
  });

  it('watches the same room again after a reconnect when spectating', async () => {
    const { client, fake } = setUp(() =>
      entered('ABCDEF', player('c', { isSpectator: true }), [player('a', { isHost: true })]),
    );
    await client.spectate('ABCDEF');

    fake.reconnect();
    await flush();

    expect(fake.sent.at(-1)).toEqual({ event: 'room:spectate', payload: { code: 'ABCDEF' } });
    expect(client.getSnapshot().room?.code).toBe('ABCDEF');
  });

  it('joins with the kept token after a reload of the page (same tab)', async () => {
    const storage = memoryStorage();
    storage.setItem(
      'portfolio:room-seat:Board',
      JSON.stringify({ code: 'ABCDEF', seatToken: 'kept' }),
    );
    const { client, fake } = setUp(() => entered('ABCDEF', player('b')), { storage });

    await client.join('ABCDEF');

    expect(fake.sent[0]).toEqual({
      event: 'room:join',
      payload: { code: 'ABCDEF', seatToken: 'kept' },
    });
  });

  it('tells the player and the game when the room is gone at the reconnect', async () => {
    let isGone = false;
    const { client, fake, pushed, storage } = setUp(() =>
      isGone
        ? { ok: false, error: { code: 'ROOM_NOT_FOUND', message: 'That room does not exist.' } }
        : entered('ABCDEF', player('b')),
    );
    await client.join('ABCDEF');
    isGone = true;
    pushed.length = 0;

    fake.reconnect();
    await flush();

    expect(client.getSnapshot()).toMatchObject({
      room: null,
      notice: { code: 'ROOM_CLOSED', message: 'That room has been closed.' },
    });
    expect(pushed).toEqual([
      { event: 'closed', payload: { reason: 'gone' } },
      { event: 'room', payload: { room: null, playerId: null } },
    ]);
    expect(storage.items.has('portfolio:room-seat:Board')).toBe(false);
  });

  it('does not rejoin after the player left, and a closed room says so', async () => {
    const { client, fake, pushed } = setUp((event) =>
      event === 'room:leave' ? { ok: true } : entered('ABCDEF', player('a')),
    );
    await client.join('ABCDEF');
    await client.handleSdk({ op: 'leave' });
    const sentBefore = fake.sent.length;

    fake.reconnect();
    await flush();
    expect(fake.sent).toHaveLength(sentBefore);

    await client.join('ABCDEF');
    pushed.length = 0;
    fake.emit('room:closed', { reason: 'admin' });
    expect(client.getSnapshot().notice?.message).toBe('That room has been closed.');
    expect(pushed[0]).toEqual({ event: 'closed', payload: { reason: 'admin' } });
  });

  it('keeps the players and state in step with the events and passes them on to the game', async () => {
    const { client, fake, pushed } = setUp(() => entered('ABCDEF', player('a', { isHost: true })));
    await client.join('ABCDEF');
    pushed.length = 0;

    fake.emit('room:join', { player: player('b') });
    fake.emit('room:join', { player: player('c') });
    fake.emit('room:away', { player: player('b', { away: true }), until: '2026-12-07T00:00:20Z' });
    fake.emit('room:message', { type: 'move', data: { cell: 4 }, from: 'b' });
    fake.emit('room:state', { key: 'turn', value: 'b', by: 'a' });
    fake.emit('room:leave', { player: player('c'), reason: 'timeout' });
    fake.emit('room:host', { player: player('b', { isHost: true }) });

    const room = client.getSnapshot().room;
    expect(room?.players).toEqual([player('a'), player('b', { isHost: true, away: true })]);
    expect(room?.state).toEqual({ turn: 'b' });
    expect(pushed.map((event) => event.event)).toEqual([
      'join',
      'join',
      'away',
      'message',
      'state',
      'leave',
      'host',
    ]);
  });

  it('answers a refusal with its catalogue code and shows a full room in the viewer', async () => {
    const { client } = setUp(() => ({
      ok: false,
      error: { code: 'ROOM_FULL', message: 'That room is full.' },
    }));

    const refusal = await client
      .handleSdk({ op: 'join', code: 'ABCDEF' })
      .catch((error: unknown) => error);

    expect(isHttpError(refusal) && refusal.code).toBe('ROOM_FULL');
    expect(client.getSnapshot().notice).toEqual({
      code: 'ROOM_FULL',
      message: 'That room is full.',
    });
  });

  it('tells the game the invite code it was opened with, and nothing for a malformed one', async () => {
    expect(
      await setUp(() => ({ ok: true }), { invitedCode: 'abc234' }).client.handleSdk({
        op: 'invited',
      }),
    ).toEqual({
      code: 'ABC234',
    });
    expect(
      await setUp(() => ({ ok: true }), { invitedCode: '<script>' }).client.handleSdk({
        op: 'invited',
      }),
    ).toEqual({ code: null });
  });

  it('shows the room bar once the game asked anything of rooms, its invite included', async () => {
    const { client, fake } = setUp(() => ({ ok: true }));
    expect(client.getSnapshot().isActive).toBe(false);
    await client.handleSdk({ op: 'invited' });
    expect(client.getSnapshot().isActive).toBe(true);
    expect(fake.sent).toEqual([]);
  });

  it('refuses an unknown request without asking the service', async () => {
    const { client, fake } = setUp(() => ({ ok: true }));
    const refusal = await client.handleSdk({ op: 'explode' }).catch((error: unknown) => error);
    expect(isHttpError(refusal) && refusal.code).toBe('BAD_REQUEST');
    expect(fake.sent).toEqual([]);
  });
});
