import { GAME_SDK_PROTOCOL } from '@portfolio/types';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { jsonResponse, stubApi } from '../../test/render-app';
import { startSdkHost } from './sdk-host';

/** A stand-in for the game's frame window: collects what the host posts to it. */
function fakeFrame() {
  const posted: { message: unknown; targetOrigin: string }[] = [];
  const frame = {
    postMessage: (message: unknown, targetOrigin: string) => posted.push({ message, targetOrigin }),
  } as unknown as Window;
  return { frame, posted };
}

const request = (id: number, type: string, payload: unknown) => ({
  protocol: GAME_SDK_PROTOCOL,
  kind: 'request',
  id,
  type,
  payload,
});

function dispatch(data: unknown, source: Window, origin = window.location.origin) {
  window.dispatchEvent(new MessageEvent('message', { data, origin, source: source as never }));
}

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
});

describe('the SDK host', () => {
  it("calls the API for a signed-in player's unlock and answers the frame on this origin", async () => {
    const { calls } = stubApi({
      'POST /api/games/Pong/achievements': () =>
        jsonResponse({ name: 'First Point', unlockedAt: '2026-01-01T00:00:00.000Z' }, 201),
      'GET /api/games/Pong/save': () =>
        jsonResponse({ data: { highScore: 4 }, updatedAt: '2026-01-01T00:00:00.000Z' }),
    });
    const { frame, posted } = fakeFrame();
    stop = startSdkHost({ gameId: 'Pong', getFrameWindow: () => frame, isSignedIn: () => true });
    dispatch(request(1, 'unlock', { name: 'First Point' }), frame);
    dispatch(request(2, 'load', {}), frame);
    await vi.waitFor(() => expect(posted).toHaveLength(2));
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'POST /api/games/Pong/achievements',
      'GET /api/games/Pong/save',
    ]);
    expect(posted).toContainEqual({
      message: { protocol: GAME_SDK_PROTOCOL, kind: 'answer', id: 1, ok: true },
      targetOrigin: window.location.origin,
    });
    expect(posted).toContainEqual({
      message: {
        protocol: GAME_SDK_PROTOCOL,
        kind: 'answer',
        id: 2,
        ok: true,
        result: { highScore: 4 },
      },
      targetOrigin: window.location.origin,
    });
  });

  it('ignores other origins, other windows and malformed messages', async () => {
    const { calls } = stubApi();
    const { frame, posted } = fakeFrame();
    const other = fakeFrame();
    stop = startSdkHost({ gameId: 'Pong', getFrameWindow: () => frame, isSignedIn: () => true });
    dispatch(request(1, 'unlock', { name: 'x' }), frame, 'https://evil.example');
    dispatch(request(2, 'unlock', { name: 'x' }), other.frame);
    dispatch({ protocol: GAME_SDK_PROTOCOL, kind: 'request', id: 3, type: 'wipe' }, frame);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls).toEqual([]);
    expect(posted).toEqual([]);
    expect(other.posted).toEqual([]);
  });

  it('talks only to its frame on the games origin when the game is served there', async () => {
    const { calls } = stubApi({
      'POST /api/games/Pong/achievements': () =>
        jsonResponse({ name: 'First Point', unlockedAt: '2026-01-01T00:00:00.000Z' }, 201),
    });
    const gamesOrigin = 'http://games.example:3001';
    const { frame, posted } = fakeFrame();
    stop = startSdkHost({
      gameId: 'Pong',
      frameOrigin: gamesOrigin,
      getFrameWindow: () => frame,
      isSignedIn: () => true,
    });
    // the site's own origin is not the frame's any more
    dispatch(request(1, 'unlock', { name: 'First Point' }), frame);
    dispatch(request(2, 'unlock', { name: 'First Point' }), frame, gamesOrigin);
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      'POST /api/games/Pong/achievements',
    ]);
    expect(posted[0]).toEqual({
      message: { protocol: GAME_SDK_PROTOCOL, kind: 'answer', id: 2, ok: true },
      targetOrigin: gamesOrigin,
    });
  });

  it("hands a signed-in player's multiplayer game a play ticket for the game it hosts", async () => {
    const ticket = {
      ticket: 'sealed-ticket',
      siteOrigin: window.location.origin,
      expiresAt: '2026-01-01T00:01:00.000Z',
    };
    const { calls } = stubApi({ 'POST /api/play-tickets': () => jsonResponse(ticket) });
    const gamesOrigin = 'http://games.example:3001';
    const { frame, posted } = fakeFrame();
    stop = startSdkHost({
      gameId: 'RocketGame',
      frameOrigin: gamesOrigin,
      getFrameWindow: () => frame,
      isSignedIn: () => true,
    });
    dispatch(request(7, 'ticket', { gameId: 'WolfScape' }), frame, gamesOrigin);
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    expect(calls.map((call) => call.body)).toEqual([{ gameId: 'RocketGame' }]);
    expect(posted[0]).toEqual({
      message: { protocol: GAME_SDK_PROTOCOL, kind: 'answer', id: 7, ok: true, result: ticket },
      targetOrigin: gamesOrigin,
    });
  });

  it('keeps a guest’s save and achievements in this browser and writes nothing to the server', async () => {
    localStorage.clear();
    const { calls } = stubApi();
    const { frame, posted } = fakeFrame();
    stop = startSdkHost({ gameId: 'Pong', getFrameWindow: () => frame, isSignedIn: () => false });
    dispatch(request(1, 'session', { action: 'start' }), frame);
    dispatch(request(2, 'save', { data: { level: 4 }, slot: 2 }), frame);
    dispatch(request(3, 'unlock', { name: 'First Point' }), frame);
    await vi.waitFor(() => expect(posted).toHaveLength(3));
    dispatch(request(4, 'load', { slot: 2 }), frame);
    dispatch(request(5, 'ticket', {}), frame);
    await vi.waitFor(() => expect(posted).toHaveLength(5));
    expect(posted.map((entry) => entry.message)).toMatchObject([
      { id: 1, ok: true },
      { id: 2, ok: true },
      { id: 3, ok: true },
      { id: 4, ok: true, result: { level: 4 } },
      { id: 5, ok: false },
    ]);
    expect(calls).toEqual([]);
    expect(JSON.parse(localStorage.getItem('portfolio-guest-progress:Pong') ?? '{}')).toMatchObject(
      {
        saves: { '2': { data: { level: 4 } } },
        achievements: { 'First Point': expect.any(String) as string },
      },
    );
  });

  it('records the game it hosts and ends an open session when the viewer closes', async () => {
    const { calls } = stubApi({
      'POST /api/games/CoopAdventure/session': () => new Response(null, { status: 204 }),
    });
    const { frame, posted } = fakeFrame();
    const stopHost = startSdkHost({
      gameId: 'CoopAdventure',
      getFrameWindow: () => frame,
      isSignedIn: () => true,
    });
    dispatch(request(1, 'session', { action: 'start' }), frame);
    await vi.waitFor(() => expect(posted).toHaveLength(1));
    stopHost();
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(calls.map((call) => call.body)).toEqual([{ action: 'start' }, { action: 'end' }]);
  });
});
