import type { CurrentUser } from '@portfolio/types';
import {
  WOLFSCAPE_MAP,
  WOLFSCAPE_SPEED,
  WOLFSCAPE_UNIT,
  type WolfEntry,
  WolfMoveInput,
  type WolfUpdate,
  type WolfWelcome,
} from '@portfolio/types/multiplayer';

import { seededRandom } from '../../lib/seeded-random.js';
import { colourOf } from './colour.js';
import type { RoomSimulation } from './game-server.js';

export const WOLFSCAPE_TICK_RATE = 10;
export const WOLFSCAPE_ROOM_CAPACITY = 16;

const { width: W, height: H } = WOLFSCAPE_MAP;

/**
 * A wild map: forest clumps, rocks and ponds on grass. Grass that cannot be reached from the
 * centre becomes forest, so every walkable tile is reachable from every other.
 */
export function generateMap(random: () => number): string[] {
  const tiles: string[] = Array.from({ length: W * H }, () => '0');
  const blob = (kind: string, count: number, radius: number) => {
    for (let index = 0; index < count; index++) {
      const cx = random() * W;
      const cy = random() * H;
      const r = radius * (0.5 + random());
      for (let y = Math.floor(cy - r); y <= cy + r; y++) {
        for (let x = Math.floor(cx - r); x <= cx + r; x++) {
          const isInside = (x - cx) ** 2 + (y - cy) ** 2 <= r * r * (0.6 + random() * 0.4);
          if (x >= 0 && y >= 0 && x < W && y < H && isInside) {
            tiles[y * W + x] = kind;
          }
        }
      }
    }
  };
  blob('1', 14, 2.6);
  blob('3', 4, 2.4);
  for (let index = 0; index < 40; index++) {
    tiles[Math.floor(random() * H) * W + Math.floor(random() * W)] = '2';
  }
  // a clearing in the middle where wolves arrive
  const centre = { x: Math.floor(W / 2), y: Math.floor(H / 2) };
  for (let y = centre.y - 2; y <= centre.y + 2; y++) {
    for (let x = centre.x - 3; x <= centre.x + 3; x++) {
      tiles[y * W + x] = '0';
    }
  }
  const reached = new Uint8Array(W * H);
  const queue = [centre.y * W + centre.x];
  reached[queue[0] ?? 0] = 1;
  while (queue.length > 0) {
    const at = queue.pop() ?? 0;
    const x = at % W;
    const y = Math.floor(at / W);
    for (const [nx, ny] of [
      [x + 1, y],
      [x - 1, y],
      [x, y + 1],
      [x, y - 1],
    ] as const) {
      const next = ny * W + nx;
      if (nx >= 0 && ny >= 0 && nx < W && ny < H && !reached[next] && tiles[next] === '0') {
        reached[next] = 1;
        queue.push(next);
      }
    }
  }
  return tiles.map((tile, index) => (tile === '0' && !reached[index] ? '1' : tile));
}

/**
 * Shortest walk on the grid (8 directions, no cutting corners), then only the tiles where the
 * direction changes. Empty when the goal cannot be reached.
 */
export function findPath(
  tiles: readonly string[],
  from: { x: number; y: number },
  to: { x: number; y: number },
): Array<[number, number]> {
  const isOpen = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < W && y < H && tiles[y * W + x] === '0';
  if (!isOpen(to.x, to.y) || !isOpen(from.x, from.y)) {
    return [];
  }
  const start = from.y * W + from.x;
  const goal = to.y * W + to.x;
  const cameFrom = new Int32Array(W * H).fill(-1);
  cameFrom[start] = start;
  const queue = new Int32Array(W * H);
  let head = 0;
  let tail = 0;
  queue[tail++] = start;
  // straight steps first, so paths prefer them on ties
  const steps = [
    [1, 0],
    [-1, 0],
    [0, 1],
    [0, -1],
    [1, 1],
    [1, -1],
    [-1, 1],
    [-1, -1],
  ] as const;
  while (head < tail && cameFrom[goal] === -1) {
    const at = queue[head++] ?? 0;
    const x = at % W;
    const y = Math.floor(at / W);
    for (const [dx, dy] of steps) {
      const nx = x + dx;
      const ny = y + dy;
      const next = ny * W + nx;
      const isDiagonalClear = dx === 0 || dy === 0 || (isOpen(x + dx, y) && isOpen(x, y + dy));
      if (isOpen(nx, ny) && isDiagonalClear && cameFrom[next] === -1) {
        cameFrom[next] = at;
        queue[tail++] = next;
      }
    }
  }
  if (cameFrom[goal] === -1) {
    return [];
  }
  const tilesOnPath: Array<[number, number]> = [];
  for (let at = goal; at !== start; at = cameFrom[at] ?? start) {
    tilesOnPath.push([at % W, Math.floor(at / W)]);
  }
  tilesOnPath.reverse();
  // keep the corners: a tile whose next step turns, and the goal
  return tilesOnPath.filter((tile, index) => {
    const previous: readonly [number, number] | undefined =
      index === 0 ? [from.x, from.y] : tilesOnPath[index - 1];
    const next = tilesOnPath[index + 1];
    if (!previous || !next) {
      return true;
    }
    return (
      tile[0] - previous[0] !== next[0] - tile[0] || tile[1] - previous[1] !== next[1] - tile[1]
    );
  });
}

interface Wolf {
  id: number;
  name: string;
  colour: number;
  /** Position in tiles (a tile's centre is its integer coordinates). */
  x: number;
  y: number;
  /** Tiles still to walk to, in order. */
  path: Array<[number, number]>;
}

const quantise = (value: number) => Math.round(value * WOLFSCAPE_UNIT);

/** One WolfScape room: a generated map, wolves walking the paths their owners clicked. */
export function createWolfScapeRoom(
  roomId: string,
  random: () => number = Math.random,
): RoomSimulation<WolfWelcome, WolfUpdate> {
  const tiles = generateMap(seededRandom(Math.floor(random() * 2 ** 32)));
  const map = tiles.join('');
  const wolves = new Map<number, Wolf>();
  let nextId = 1;
  let pending: Required<WolfUpdate> = { p: [], j: [], l: [] };

  const entry = (wolf: Wolf): WolfEntry => [
    wolf.id,
    wolf.name,
    quantise(wolf.x),
    quantise(wolf.y),
    wolf.colour,
  ];
  const pathMessage = (wolf: Wolf) => [
    wolf.id,
    quantise(wolf.x),
    quantise(wolf.y),
    ...wolf.path.flat(),
  ];

  function spawnTile(): { x: number; y: number } {
    for (let attempt = 0; attempt < 200; attempt++) {
      const x = Math.floor(W / 2 - 4 + random() * 8);
      const y = Math.floor(H / 2 - 3 + random() * 6);
      if (tiles[y * W + x] === '0') {
        return { x, y };
      }
    }
    return { x: Math.floor(W / 2), y: Math.floor(H / 2) };
  }

  function walk(wolf: Wolf, dt: number) {
    let budget = WOLFSCAPE_SPEED * dt;
    while (budget > 0 && wolf.path.length > 0) {
      const [tx, ty] = wolf.path[0] ?? [wolf.x, wolf.y];
      const distance = Math.hypot(tx - wolf.x, ty - wolf.y);
      if (distance <= budget) {
        wolf.x = tx;
        wolf.y = ty;
        budget -= distance;
        wolf.path.shift();
      } else {
        wolf.x += ((tx - wolf.x) / distance) * budget;
        wolf.y += ((ty - wolf.y) / distance) * budget;
        budget = 0;
      }
    }
  }

  return {
    addPlayer(user: CurrentUser) {
      const tile = spawnTile();
      const wolf: Wolf = {
        id: nextId++,
        name: user.username,
        colour: colourOf(user.id),
        x: tile.x,
        y: tile.y,
        path: [],
      };
      wolves.set(wolf.id, wolf);
      pending.j.push(entry(wolf));
      return {
        playerId: wolf.id,
        welcome: {
          room: roomId,
          you: wolf.id,
          map,
          wolves: [...wolves.values()].map(entry),
          paths: [...wolves.values()].filter((other) => other.path.length > 0).map(pathMessage),
        },
      };
    },
    removePlayer(playerId) {
      if (wolves.delete(playerId)) {
        pending.l.push(playerId);
      }
    },
    handleInput(playerId, payload) {
      const parsed = WolfMoveInput.safeParse(payload);
      const wolf = wolves.get(playerId);
      if (!parsed.success || !wolf) {
        return false;
      }
      // the walk restarts from where clients will be told the wolf is
      wolf.x = quantise(wolf.x) / WOLFSCAPE_UNIT;
      wolf.y = quantise(wolf.y) / WOLFSCAPE_UNIT;
      const from = { x: Math.round(wolf.x), y: Math.round(wolf.y) };
      const path = findPath(tiles, from, parsed.data);
      if (path.length === 0) {
        return true;
      }
      if (wolf.x !== from.x || wolf.y !== from.y) {
        // mid-step: back to the centre of the tile first, so no corner is cut
        path.unshift([from.x, from.y]);
      }
      wolf.path = path;
      pending.p.push(pathMessage(wolf));
      return true;
    },
    tick(dt) {
      for (const wolf of wolves.values()) {
        walk(wolf, dt);
      }
      const update: WolfUpdate = {};
      if (pending.p.length > 0) {
        update.p = pending.p;
      }
      if (pending.j.length > 0) {
        update.j = pending.j;
      }
      if (pending.l.length > 0) {
        update.l = pending.l;
      }
      pending = { p: [], j: [], l: [] };
      return Object.keys(update).length > 0 ? update : undefined;
    },
  };
}
