import { describe, expect, it } from 'vitest';

import { ROCKET_KEYS, WOLFSCAPE_MAP } from '@portfolio/types/multiplayer';

import { createRocketRoom } from './rocket-game.js';
import { seededRandom } from '../../lib/seeded-random.js';
import { findPath, generateMap } from './wolfscape.js';

const user = (name: string) => ({ id: `id-${name}`, username: name, role: 'user' as const });
const TICK = 1 / 30;

/** Ticks until the room broadcasts, returning that update. */
function nextBroadcast(room: ReturnType<typeof createRocketRoom>) {
  for (let index = 0; index < 10; index++) {
    const update = room.tick(TICK);
    if (update) {
      return update;
    }
  }
  return undefined;
}

describe('Rocket Game room', () => {
  it('sends a rocket only when its quantised state changed', () => {
    const room = createRocketRoom('r', { random: seededRandom(1) });
    const a = room.addPlayer(user('a')).playerId;
    const b = room.addPlayer(user('b')).playerId;
    expect(nextBroadcast(room)?.j?.map((entry) => entry[1])).toEqual(['a', 'b']);
    // nobody pressed anything: nothing changed, nothing is sent
    expect(nextBroadcast(room)).toBeUndefined();

    expect(room.handleInput(a, ROCKET_KEYS.forward)).toBe(true);
    const moved = nextBroadcast(room)?.m ?? [];
    expect(moved[0]).toBe(a);
    expect(moved).toHaveLength(5);
    expect(moved.every((value) => Number.isInteger(value))).toBe(true);
    expect(moved.includes(b)).toBe(false);
  });

  it('refuses malformed input and keeps the last valid keys', () => {
    const room = createRocketRoom('r', { random: seededRandom(2) });
    const a = room.addPlayer(user('a')).playerId;
    nextBroadcast(room);
    for (const bad of [16, -1, 2.5, '4', null, { keys: 4 }]) {
      expect(room.handleInput(a, bad)).toBe(false);
    }
    expect(nextBroadcast(room)).toBeUndefined();
  });

  it('scores a hit and respawns the target', () => {
    // every random number is 0.5: both rockets start on the same spot, facing the same way
    const room = createRocketRoom('r', { random: () => 0.5 });
    const shooter = room.addPlayer(user('shooter')).playerId;
    const target = room.addPlayer(user('target')).playerId;
    nextBroadcast(room);
    room.handleInput(shooter, ROCKET_KEYS.shoot);
    const update = nextBroadcast(room);
    expect(update?.s).toHaveLength(4);
    expect(update?.h?.slice(1)).toEqual([shooter, target, 1]);
  });
});

describe('WolfScape map and paths', () => {
  const { width: W, height: H } = WOLFSCAPE_MAP;

  it('generates maps whose grass is all reachable from the centre', () => {
    for (const seed of [1, 2, 3]) {
      const tiles = generateMap(seededRandom(seed));
      expect(tiles).toHaveLength(W * H);
      const centre = { x: W / 2, y: H / 2 };
      const grass = tiles.flatMap((tile, index) => (tile === '0' ? [index] : []));
      expect(grass.length).toBeGreaterThan((W * H) / 2);
      for (const index of grass.filter((_, n) => n % 97 === 0)) {
        expect(findPath(tiles, centre, { x: index % W, y: Math.floor(index / W) })).not.toEqual([]);
      }
    }
  });

  it('walks around a wall, and finds nothing for a blocked goal', () => {
    // a wall at x = 5 with one gap at the bottom row
    const tiles = Array.from({ length: W * H }, (_, index) =>
      index % W === 5 && Math.floor(index / W) < H - 1 ? '1' : '0',
    );
    const path = findPath(tiles, { x: 2, y: 2 }, { x: 8, y: 2 });
    expect(path.at(-1)).toEqual([8, 2]);
    expect(path.some(([, y]) => y === H - 1)).toBe(true);
    expect(path.every(([x, y]) => tiles[y * W + x] === '0')).toBe(true);
    expect(findPath(tiles, { x: 2, y: 2 }, { x: 5, y: 3 })).toEqual([]);
  });
});
