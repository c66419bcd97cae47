import { GAME_SDK_PROTOCOL } from '@portfolio/types';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { grantOf, startGrantRenewal } from './grant-renewal';

const GAMES = 'http://127.0.0.1:3001';
const granted = (grant: string) => `${GAMES}/g/${grant}/Pong/3/index.html`;

/** A stand-in for the game's frame window: collects what is posted to it. */
function fakeFrame() {
  const posted: { message: unknown; targetOrigin: string }[] = [];
  const frame = {
    postMessage: (message: unknown, targetOrigin: string) => posted.push({ message, targetOrigin }),
  } as unknown as Window;
  return { frame, posted };
}

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  stop = undefined;
  vi.useRealTimers();
});

describe('grant renewal in the open viewer', () => {
  it('reads the grant of a subscriber play URL only', () => {
    expect(grantOf(granted('mabc12.AAAAAAAAAAAAAAAAAAAAAA'))).toBe('mabc12.AAAAAAAAAAAAAAAAAAAAAA');
    expect(grantOf(`${GAMES}/Pong/3/index.html`)).toBeUndefined();
    expect(grantOf(`${GAMES}/g/not a grant/Pong/3/index.html`)).toBeUndefined();
    expect(grantOf(null)).toBeUndefined();
  });

  it('posts a fresh grant to the frame every minute, on the games origin only', async () => {
    vi.useFakeTimers();
    const { frame, posted } = fakeFrame();
    const fresh = ['aaaa1.BBBBBBBBBBBBBBBBBBBBBB', 'aaaa2.CCCCCCCCCCCCCCCCCCCCCC'];
    const readPlayUrl = vi.fn(() => Promise.resolve(granted(fresh.shift() ?? '')));
    stop = startGrantRenewal({
      gameId: 'Pong',
      playUrl: granted('aaaa0.AAAAAAAAAAAAAAAAAAAAAA'),
      getFrameWindow: () => frame,
      readPlayUrl,
    });
    expect(posted).toEqual([]);
    await vi.advanceTimersByTimeAsync(60_000);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(readPlayUrl).toHaveBeenCalledWith('Pong');
    expect(posted).toEqual([
      {
        message: {
          protocol: GAME_SDK_PROTOCOL,
          kind: 'grant',
          grant: 'aaaa1.BBBBBBBBBBBBBBBBBBBBBB',
        },
        targetOrigin: GAMES,
      },
      {
        message: {
          protocol: GAME_SDK_PROTOCOL,
          kind: 'grant',
          grant: 'aaaa2.CCCCCCCCCCCCCCCCCCCCCC',
        },
        targetOrigin: GAMES,
      },
    ]);
  });

  it('stops when the game is no longer granted (the subscription ended)', async () => {
    vi.useFakeTimers();
    const { frame, posted } = fakeFrame();
    const readPlayUrl = vi.fn(() => Promise.resolve(`${GAMES}/Pong/3/index.html`));
    stop = startGrantRenewal({
      gameId: 'Pong',
      playUrl: granted('aaaa0.AAAAAAAAAAAAAAAAAAAAAA'),
      getFrameWindow: () => frame,
      readPlayUrl,
    });
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(readPlayUrl).toHaveBeenCalledTimes(1);
    expect(posted).toEqual([]);
  });

  it('does nothing for a public game', async () => {
    vi.useFakeTimers();
    const readPlayUrl = vi.fn(() => Promise.resolve(undefined));
    stop = startGrantRenewal({
      gameId: 'Snake',
      playUrl: `${GAMES}/Snake/1/index.html`,
      getFrameWindow: () => undefined,
      readPlayUrl,
    });
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(readPlayUrl).not.toHaveBeenCalled();
  });
});
