import { describe, expect, it } from 'vitest';

import {
  DEFAULT_GAME_ROOM_SETTINGS,
  ROOM_CODE_ALPHABET,
  ROOM_MESSAGE_MAX_BYTES,
  ROOM_MESSAGES_BURST,
  type GameRoomSettings,
} from '@portfolio/types/rooms';

import type { Db } from '../../db/client.js';
import type { GameCatalogue } from '../game-host/index.js';
import type { RoomGame, RoomsEmitter } from './context.js';
import { createRoomService, type RoomService } from './service.js';
import type { RoomStore } from './store.js';

/*
 * One suite over both room stores (memory and Redis), through the room service with an injected
 * clock: what a client of the service notices (answers, refusals, the events the room gets).
 */

interface Emitted {
  to: string;
  event: string;
  payload: unknown;
}

function recordingEmitter(): RoomsEmitter & { emitted: Emitted[] } {
  const emitted: Emitted[] = [];
  return {
    emitted,
    toRoom: (code, event, payload) => void emitted.push({ to: code, event, payload }),
    toPlayer: (code, playerId, event, payload) =>
      void emitted.push({ to: `${code}:${playerId}`, event, payload }),
    toChat: (code, payload) => void emitted.push({ to: code, event: 'chat:message', payload }),
    closeRoom: (code, reason) =>
      void emitted.push({ to: code, event: 'room:closed', payload: { reason } }),
    chatStatusChanged: () => undefined,
  };
}

const GAME_ID = 'RoomsGame';

function setup(makeStore: () => RoomStore, settings: Partial<GameRoomSettings> = {}) {
  let time = Date.UTC(2026, 0, 1);
  const roomSettings = { ...DEFAULT_GAME_ROOM_SETTINGS, ...settings };
  // the service reads only a game's room settings from the catalogue
  const catalogue = {
    get: () => ({ game: { roomSettings }, builds: [] }),
  } as unknown as GameCatalogue;
  const rooms: RoomService = createRoomService({
    db: {} as Db,
    store: makeStore(),
    catalogue,
    now: () => time,
    replicaId: 'replica-test',
  });
  const emitter = recordingEmitter();
  rooms.attachEmitter(emitter);
  const game: RoomGame = { id: GAME_ID, settings: roomSettings };
  let sockets = 0;
  const person = (name: string) => ({
    who: { userId: null, name },
    connection: { socketId: `socket-${(sockets += 1)}` },
  });
  return {
    rooms,
    emitter,
    game,
    person,
    advance: (ms: number) => {
      time += ms;
    },
  };
}

const codeOf = (error: unknown) =>
  error instanceof Error && 'code' in error ? String(error.code) : String(error);

export function describeRoomServiceContract(name: string, makeStore: () => RoomStore): void {
  describe(`room service on the ${name} store`, () => {
    it('makes 6-character codes from the alphabet, each room its own', async () => {
      const { rooms, game, person } = setup(makeStore);
      const codes = new Set<string>();
      for (let index = 0; index < 20; index += 1) {
        const { who, connection } = person(`P${index}`);
        const { room } = await rooms.create(game, who, connection, { private: true });
        expect(room.code).toMatch(new RegExp(`^[${ROOM_CODE_ALPHABET}]{6}$`));
        codes.add(room.code);
      }
      expect(codes.size).toBe(20);
    });

    it('seats at most maxPlayers and says the room is full', async () => {
      const { rooms, game, person } = setup(makeStore);
      const a = person('A');
      const { room } = await rooms.create(game, a.who, a.connection, {
        private: true,
        maxPlayers: 2,
      });
      const b = person('B');
      const joined = await rooms.join(game, b.who, b.connection, { code: room.code });
      expect(joined.room.players.map((player) => player.name)).toEqual(['A', 'B']);
      const c = person('C');
      await expect(rooms.join(game, c.who, c.connection, { code: room.code })).rejects.toSatisfy(
        (error) => codeOf(error) === 'ROOM_FULL',
      );
      // a spectator takes no seat
      const watched = await rooms.spectate(game, c.who, c.connection, room.code);
      expect(watched.room.players.find((player) => player.name === 'C')?.isSpectator).toBe(true);
    });

    it('never quick-joins a private room; quick join fills the fullest public room first', async () => {
      const { rooms, game, person, advance } = setup(makeStore);
      const a = person('A');
      const secret = await rooms.create(game, a.who, a.connection, { private: true });
      const b = person('B');
      const quick = await rooms.quickJoin(game, b.who, b.connection);
      expect(quick.room.code).not.toBe(secret.room.code);
      expect(quick.room.private).toBe(false);
      // C's room is a second younger (at the same moment, which is older is a coin toss)
      advance(1_000);
      const c = person('C');
      const small = await rooms.create(game, c.who, c.connection, { private: false });
      const d = person('D');
      // B's room (1 player) and C's (1 player): the older first; then it has 2 and wins again
      const first = await rooms.quickJoin(game, d.who, d.connection);
      expect(first.room.code).toBe(quick.room.code);
      const e = person('E');
      expect((await rooms.quickJoin(game, e.who, e.connection)).room.code).toBe(quick.room.code);
      expect(small.room.code).not.toBe(quick.room.code);
      const lobby = await rooms.listPublic(GAME_ID);
      expect(lobby.map((entry) => entry.code).sort()).toEqual(
        [quick.room.code, small.room.code].sort(),
      );
    });

    it('hands the host over to the longest-seated player when the host leaves', async () => {
      const { rooms, game, person, emitter } = setup(makeStore);
      const a = person('A');
      const created = await rooms.create(game, a.who, a.connection, { private: true });
      const b = person('B');
      const joinedB = await rooms.join(game, b.who, b.connection, { code: created.room.code });
      const c = person('C');
      await rooms.join(game, c.who, c.connection, { code: created.room.code });
      await rooms.leave(created.member);
      const host = emitter.emitted.find((entry) => entry.event === 'room:host');
      expect(host?.payload).toMatchObject({ player: { name: 'B', isHost: true } });
      const d = person('D');
      const view = await rooms.join(game, d.who, d.connection, { code: created.room.code });
      expect(view.room.players.find((player) => player.isHost)?.id).toBe(joinedB.seat.playerId);
    });

    it('lets exactly one of two racing compare-and-sets win', async () => {
      const { rooms, game, person } = setup(makeStore);
      const a = person('A');
      const created = await rooms.create(game, a.who, a.connection, { private: true });
      const b = person('B');
      const joined = await rooms.join(game, b.who, b.connection, { code: created.room.code });
      const results = await Promise.all([
        rooms.compareAndSet(created.member, { key: 'last-item', expected: null, value: 'A' }),
        rooms.compareAndSet(joined.member, { key: 'last-item', expected: null, value: 'B' }),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      // a value compared by content, whatever its keys' order
      await rooms.setState(created.member, { key: 'pos', value: { x: 1, y: 2 } });
      expect(
        await rooms.compareAndSet(joined.member, {
          key: 'pos',
          expected: { y: 2, x: 1 },
          value: { x: 3, y: 2 },
        }),
      ).toBe(true);
      const view = await rooms.join(game, b.who, b.connection, {
        code: created.room.code,
        seatToken: joined.seat.seatToken,
      });
      expect(view.room.state).toMatchObject({ pos: { x: 3, y: 2 } });
    });

    it('keeps a dropped seat for the grace period, then frees it and tells the room', async () => {
      const { rooms, game, person, emitter, advance } = setup(makeStore, { graceSeconds: 20 });
      const a = person('A');
      const created = await rooms.create(game, a.who, a.connection, { private: true });
      const b = person('B');
      const joined = await rooms.join(game, b.who, b.connection, { code: created.room.code });
      await rooms.dropped(joined.member);
      expect(emitter.emitted.at(-1)).toMatchObject({
        event: 'room:away',
        payload: { player: { name: 'B', away: true } },
      });
      advance(15_000);
      await rooms.sweep();
      const b2 = person('B');
      const back = await rooms.join(game, b2.who, b2.connection, {
        code: created.room.code,
        seatToken: joined.seat.seatToken,
      });
      expect(back.seat.playerId).toBe(joined.seat.playerId);
      expect(emitter.emitted.at(-1)).toMatchObject({ event: 'room:back' });
      // dropped again, and this time the grace period ends
      await rooms.dropped(back.member);
      advance(20_001);
      await rooms.sweep();
      expect(emitter.emitted.at(-1)).toMatchObject({
        event: 'room:leave',
        payload: { player: { id: joined.seat.playerId }, reason: 'timeout' },
      });
      const late = person('B');
      const rejoined = await rooms.join(game, late.who, late.connection, {
        code: created.room.code,
        seatToken: joined.seat.seatToken,
      });
      expect(rejoined.seat.playerId).not.toBe(joined.seat.playerId);
    });

    it('hands the host over when the host times out, and deletes a room nobody holds', async () => {
      const { rooms, game, person, emitter, advance } = setup(makeStore, { graceSeconds: 5 });
      const a = person('A');
      const created = await rooms.create(game, a.who, a.connection, { private: true });
      const b = person('B');
      await rooms.join(game, b.who, b.connection, { code: created.room.code });
      await rooms.dropped(created.member);
      advance(6000);
      await rooms.sweep();
      expect(emitter.emitted.filter((entry) => entry.event === 'room:host').at(-1)).toMatchObject({
        payload: { player: { name: 'B' } },
      });
      const c = person('C');
      const lone = await rooms.create(game, c.who, c.connection, { private: true });
      await rooms.leave(lone.member);
      const d = person('D');
      await expect(
        rooms.join(game, d.who, d.connection, { code: lone.room.code }),
      ).rejects.toSatisfy((error) => codeOf(error) === 'ROOM_NOT_FOUND');
    });

    it('refuses spectators game messages and state, and oversized or too many messages', async () => {
      const { rooms, game, person } = setup(makeStore);
      const a = person('A');
      const created = await rooms.create(game, a.who, a.connection, { private: false });
      const s = person('S');
      const watching = await rooms.spectate(game, s.who, s.connection, created.room.code);
      expect(() => rooms.send(watching.member, { type: 'move', data: 1 })).toThrow(
        expect.objectContaining({ code: 'ROOM_SPECTATOR' }),
      );
      await expect(rooms.setState(watching.member, { key: 'k', value: 1 })).rejects.toSatisfy(
        (error) => codeOf(error) === 'ROOM_SPECTATOR',
      );
      expect(() =>
        rooms.send(created.member, { type: 'move', data: 'x'.repeat(ROOM_MESSAGE_MAX_BYTES) }),
      ).toThrow(expect.objectContaining({ code: 'ROOM_MESSAGE_TOO_LARGE' }));
      expect(() => rooms.send(created.member, { type: 'join' })).toThrow(
        expect.objectContaining({ code: 'BAD_REQUEST' }),
      );
      let refused = 0;
      for (let index = 0; index < ROOM_MESSAGES_BURST + 5; index += 1) {
        try {
          rooms.send(created.member, { type: 'move', data: index });
        } catch (error) {
          expect(codeOf(error)).toBe('RATE_LIMITED');
          refused += 1;
        }
      }
      expect(refused).toBeGreaterThan(0);
    });

    it('says a closed room was closed, and an unknown code that it does not exist', async () => {
      const { rooms, game, person, emitter } = setup(makeStore);
      const a = person('A');
      const created = await rooms.create(game, a.who, a.connection, { private: true });
      await rooms.close(created.room.code, null).catch((error: unknown) => {
        // the unit suite has no database for the audit entry: the room is closed before it
        expect(String(error)).toMatch(/insert|db|undefined|function/i);
      });
      expect(emitter.emitted.at(-1)).toMatchObject({
        event: 'room:closed',
        payload: { reason: 'admin' },
      });
      const b = person('B');
      await expect(
        rooms.join(game, b.who, b.connection, { code: created.room.code }),
      ).rejects.toSatisfy((error) => codeOf(error) === 'ROOM_CLOSED');
      await expect(rooms.join(game, b.who, b.connection, { code: 'ZZZZZZ' })).rejects.toSatisfy(
        (error) => codeOf(error) === 'ROOM_NOT_FOUND',
      );
    });

    it("keeps chat lines exactly as written (escaping is the viewer's)", async () => {
      const { rooms, game, person, emitter } = setup(makeStore);
      // chat status of a guest needs no database; the game's chat is on by default
      const a = person('A');
      const created = await rooms.create(game, a.who, a.connection, { private: true });
      const text = '<script>alert("hi")</script> & <b>';
      await rooms.chat(created.member, text);
      expect(emitter.emitted.at(-1)).toMatchObject({ event: 'chat:message', payload: { text } });
      expect((await rooms.chatHistory(created.room.code)).map((line) => line.text)).toEqual([text]);
    });
  });
}
