import type { CurrentUser } from '@portfolio/types';
import {
  ROCKET_ANGLE_STEPS,
  ROCKET_KEYS,
  ROCKET_SHOT,
  ROCKET_WORLD,
  type RocketEntry,
  RocketInput,
  type RocketUpdate,
  type RocketWelcome,
} from '@portfolio/types/multiplayer';

import type { RoomSimulation } from './game-server.js';
import { colourOf } from './colour.js';

export const ROCKET_TICK_RATE = 30;
/**
 * State goes out every third tick (10 per second: within 2 KB/s for a full room), each room on
 * its own phase, so a tick writes to a third of the sockets (socket writes are most of its cost).
 */
const BROADCAST_EVERY = 3;
export const ROCKET_ROOM_CAPACITY = 8;

const TURN_RATE = 3.6; // radians per second
const THRUST = 420; // units per second²
const DRAG = 0.7; // fraction of speed lost per second
const MAX_SPEED = 480;
const FIRE_COOLDOWN = 0.35; // seconds
const HIT_RADIUS = 22;

interface Rocket {
  id: number;
  name: string;
  colour: number;
  x: number;
  y: number;
  vx: number;
  vy: number;
  angle: number;
  keys: number;
  cooldown: number;
  score: number;
  /** What clients last heard: x, y, angle step, flags. */
  sent: [number, number, number, number];
}

interface Shot {
  id: number;
  ownerId: number;
  x: number;
  y: number;
  dx: number;
  dy: number;
  age: number;
}

const TAU = Math.PI * 2;
const wrap = (value: number, size: number) => ((value % size) + size) % size;
const angleStep = (angle: number) =>
  Math.round((wrap(angle, TAU) / TAU) * ROCKET_ANGLE_STEPS) % ROCKET_ANGLE_STEPS;

/** Shortest distance on the wrapping world along one axis. */
function wrappedDelta(a: number, b: number, size: number): number {
  const delta = Math.abs(a - b) % size;
  return Math.min(delta, size - delta);
}

/** A rocket as the welcome and join lists carry it. */
const entry = (rocket: Rocket): RocketEntry => [
  rocket.id,
  rocket.name,
  rocket.sent[0],
  rocket.sent[1],
  rocket.sent[2],
  rocket.score,
  rocket.colour,
];

/** A rocket at rest somewhere away from the edges. */
function place(rocket: Rocket, random: () => number) {
  rocket.x = 100 + random() * (ROCKET_WORLD.width - 200);
  rocket.y = 100 + random() * (ROCKET_WORLD.height - 200);
  rocket.vx = 0;
  rocket.vy = 0;
  rocket.angle = random() * TAU;
}

/** What clients see of a rocket: whole pixels, an angle step, thrusting or not. */
function quantise(rocket: Rocket): [number, number, number, number] {
  const isThrusting = (rocket.keys & ROCKET_KEYS.forward) !== 0;
  return [Math.round(rocket.x), Math.round(rocket.y), angleStep(rocket.angle), isThrusting ? 1 : 0];
}

/** Turns, thrusts, drags and moves a rocket; true when it shoots now. */
function move(rocket: Rocket, dt: number): boolean {
  const turn =
    ((rocket.keys & ROCKET_KEYS.right) !== 0 ? 1 : 0) -
    ((rocket.keys & ROCKET_KEYS.left) !== 0 ? 1 : 0);
  rocket.angle = wrap(rocket.angle + turn * TURN_RATE * dt, TAU);
  if ((rocket.keys & ROCKET_KEYS.forward) !== 0) {
    rocket.vx += Math.cos(rocket.angle) * THRUST * dt;
    rocket.vy += Math.sin(rocket.angle) * THRUST * dt;
  }
  const damping = Math.max(0, 1 - DRAG * dt);
  rocket.vx *= damping;
  rocket.vy *= damping;
  const speed = Math.hypot(rocket.vx, rocket.vy);
  if (speed > MAX_SPEED) {
    rocket.vx *= MAX_SPEED / speed;
    rocket.vy *= MAX_SPEED / speed;
  }
  rocket.x = wrap(rocket.x + rocket.vx * dt, ROCKET_WORLD.width);
  rocket.y = wrap(rocket.y + rocket.vy * dt, ROCKET_WORLD.height);
  rocket.cooldown = Math.max(0, rocket.cooldown - dt);
  return (rocket.keys & ROCKET_KEYS.shoot) !== 0 && rocket.cooldown === 0;
}

/** The rocket (not the shooter's) a shot at its current position touches, if any. */
function targetOf(rockets: Map<number, Rocket>, shot: Shot): Rocket | undefined {
  for (const target of rockets.values()) {
    if (target.id === shot.ownerId) {
      continue;
    }
    const dx = wrappedDelta(shot.x, target.x, ROCKET_WORLD.width);
    const dy = wrappedDelta(shot.y, target.y, ROCKET_WORLD.height);
    if (dx * dx + dy * dy <= HIT_RADIUS * HIT_RADIUS) {
      return target;
    }
  }
  return undefined;
}

type PendingUpdate = Required<Pick<RocketUpdate, 's' | 'h' | 'j' | 'l'>>;

/** A tick's update: only the lists that have something, or nothing at all. */
function updateOf(moved: number[], pending: PendingUpdate): RocketUpdate | undefined {
  const update: RocketUpdate = {};
  if (moved.length > 0) {
    update.m = moved;
  }
  if (pending.s.length > 0) {
    update.s = pending.s;
  }
  if (pending.h.length > 0) {
    update.h = pending.h;
  }
  if (pending.j.length > 0) {
    update.j = pending.j;
  }
  if (pending.l.length > 0) {
    update.l = pending.l;
  }
  return Object.keys(update).length > 0 ? update : undefined;
}

/** One Rocket Game arena: rockets with inertia on a wrapping field, shots, hits and scores. */
export function createRocketRoom(
  roomId: string,
  options: { roomNumber?: number; random?: () => number } = {},
): RoomSimulation<RocketWelcome, RocketUpdate> {
  const random = options.random ?? Math.random;
  const phase = (options.roomNumber ?? 0) % BROADCAST_EVERY;
  const rockets = new Map<number, Rocket>();
  const shots: Shot[] = [];
  let nextPlayerId = 1;
  let nextShotId = 1;
  let tickCount = 0;
  let pending: PendingUpdate = { s: [], h: [], j: [], l: [] };

  function fire(rocket: Rocket) {
    rocket.cooldown = FIRE_COOLDOWN;
    // the direction clients compute from the quantised angle, so their drawing matches
    const step = angleStep(rocket.angle);
    const direction = (step / ROCKET_ANGLE_STEPS) * TAU;
    const x = Math.round(rocket.x + Math.cos(direction) * 18);
    const y = Math.round(rocket.y + Math.sin(direction) * 18);
    const shot = {
      id: nextShotId++,
      ownerId: rocket.id,
      x,
      y,
      dx: Math.cos(direction) * ROCKET_SHOT.speed,
      dy: Math.sin(direction) * ROCKET_SHOT.speed,
      age: 0,
    };
    shots.push(shot);
    pending.s.push(shot.id, x, y, step);
  }

  function moveShots(dt: number) {
    for (let index = shots.length - 1; index >= 0; index--) {
      const shot = shots[index];
      if (!shot) {
        continue;
      }
      // checked before and after the step: a shot moves about one hit radius per tick
      let target = targetOf(rockets, shot);
      if (!target) {
        shot.age += dt;
        shot.x += shot.dx * dt;
        shot.y += shot.dy * dt;
        target = shot.age > ROCKET_SHOT.life ? undefined : targetOf(rockets, shot);
      }
      if (target) {
        const shooter = rockets.get(shot.ownerId);
        if (shooter) {
          shooter.score++;
        }
        place(target, random);
        pending.h.push(shot.id, shot.ownerId, target.id, shooter?.score ?? 0);
        shots.splice(index, 1);
      } else if (shot.age > ROCKET_SHOT.life) {
        shots.splice(index, 1);
      }
    }
  }

  return {
    addPlayer(user: CurrentUser) {
      const rocket: Rocket = {
        id: nextPlayerId++,
        name: user.username,
        colour: colourOf(user.id),
        x: 0,
        y: 0,
        vx: 0,
        vy: 0,
        angle: 0,
        keys: 0,
        cooldown: 0,
        score: 0,
        sent: [0, 0, 0, 0],
      };
      place(rocket, random);
      rocket.sent = quantise(rocket);
      rockets.set(rocket.id, rocket);
      pending.j.push(entry(rocket));
      return {
        playerId: rocket.id,
        welcome: {
          room: roomId,
          you: rocket.id,
          world: { ...ROCKET_WORLD },
          rockets: [...rockets.values()].map(entry),
        },
      };
    },
    removePlayer(playerId) {
      if (rockets.delete(playerId)) {
        pending.l.push(playerId);
      }
    },
    handleInput(playerId, payload) {
      const parsed = RocketInput.safeParse(payload);
      const rocket = rockets.get(playerId);
      if (!parsed.success || !rocket) {
        return false;
      }
      rocket.keys = parsed.data;
      return true;
    },
    tick(dt) {
      for (const rocket of rockets.values()) {
        if (move(rocket, dt)) {
          fire(rocket);
        }
      }
      moveShots(dt);
      tickCount++;
      if (tickCount % BROADCAST_EVERY !== phase) {
        return undefined;
      }
      const moved: number[] = [];
      for (const rocket of rockets.values()) {
        const now = quantise(rocket);
        const [x, y, angle, flags] = now;
        const [sx, sy, sAngle, sFlags] = rocket.sent;
        if (x !== sx || y !== sy || angle !== sAngle || flags !== sFlags) {
          moved.push(rocket.id, x, y, angle, flags);
          rocket.sent = now;
        }
      }
      const update = updateOf(moved, pending);
      pending = { s: [], h: [], j: [], l: [] };
      return update;
    },
  };
}
