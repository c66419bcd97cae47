import { describe, expect, it } from 'vitest';

import { GAME_CATALOGUE, decideGameAccess, findGame } from './games.js';

describe('the built-in game catalogue (spec section 3)', () => {
  it('holds the seven games with the spec access rules', () => {
    const summary = Object.fromEntries(
      GAME_CATALOGUE.map((game) => [
        game.id,
        [game.access, game.isMultiplayer, game.serverType ?? null],
      ]),
    );
    expect(summary).toEqual({
      TopDownRogueLike: ['public', false, null],
      MainQuest2: ['public', false, null],
      CoopAdventure: ['public', false, null],
      CompMultiplayerUCCS: ['public', false, null],
      Pong: ['subscriber', false, null],
      WolfScape: ['public', true, 'wolfscape'],
      RocketGame: ['public', true, 'rocketGame'],
    });
    expect(findGame('MainQuest2')?.title).toBe('Android Mobile Game');
    expect(findGame('nope')).toBeUndefined();
  });
});

describe('decideGameAccess (spec section 6)', () => {
  const publicGame = { id: 'TopDownRogueLike', access: 'public', isMultiplayer: false } as const;
  const multiplayer = { id: 'WolfScape', access: 'public', isMultiplayer: true } as const;
  const subscriberGame = { id: 'Pong', access: 'subscriber', isMultiplayer: false } as const;

  it('opens public single-player games to everyone', () => {
    for (const role of [null, 'user', 'subscriber', 'admin'] as const) {
      expect(decideGameAccess(publicGame, role)).toEqual({ allowed: true });
    }
  });

  it('needs any signed-in user for multiplayer games; guests go to /login and back', () => {
    expect(decideGameAccess(multiplayer, null)).toEqual({
      allowed: false,
      reason: 'login',
      redirectTo: '/login?redirect=%2Fgames%3Fplay%3DWolfScape',
      notice: 'Login to Play',
    });
    expect(decideGameAccess(multiplayer, 'user')).toEqual({ allowed: true });
  });

  it('needs subscriber or admin for subscriber games', () => {
    expect(decideGameAccess(subscriberGame, null)).toMatchObject({
      allowed: false,
      redirectTo: '/login?redirect=/subscribe',
      notice: 'Login to Play',
    });
    expect(decideGameAccess(subscriberGame, 'user')).toMatchObject({
      allowed: false,
      redirectTo: '/subscribe',
      notice: 'Subscribe to Play',
    });
    expect(decideGameAccess(subscriberGame, 'subscriber')).toEqual({ allowed: true });
    expect(decideGameAccess(subscriberGame, 'admin')).toEqual({ allowed: true });
  });
});
