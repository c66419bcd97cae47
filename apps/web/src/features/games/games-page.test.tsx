import { decideGameAccess, GAME_CATALOGUE } from '@portfolio/types';
import type { GameEntry } from '@portfolio/types/game-host';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { apiError, jsonResponse, renderApp, signedInAs, stubApi } from '../../test/render-app';

type Role = 'guest' | 'user' | 'subscriber' | 'admin';

const GAMES_ORIGIN = 'http://games.test:4001';

/** GET /api/games as the server answers it for a role: the built-in catalogue, version 1. */
function catalogueFor(role: Role, extra: GameEntry[] = []): { games: GameEntry[] } {
  const games = GAME_CATALOGUE.map((game): GameEntry => {
    const mayPlay = decideGameAccess(game, role === 'guest' ? null : role).allowed;
    const grant = game.access === 'subscriber' ? '/g/grant123' : '';
    return {
      id: game.id,
      title: game.title,
      description: game.description,
      thumbnail: game.thumbnail,
      instructions: game.instructions,
      section: game.engine,
      access: game.access,
      isMultiplayer: game.isMultiplayer,
      ...(game.serverType ? { serverType: game.serverType } : {}),
      frame: { mode: 'default' },
      touch: game.id === 'Pong' || game.id === 'RocketGame' ? 'keyboard-only' : 'playable',
      orientation: 'landscape',
      playUrl:
        game.access === 'subscriber' && !mayPlay
          ? null
          : `${GAMES_ORIGIN}${grant}/${game.id}/1/index.html`,
      needsIsolation: false,
      version: 1,
    };
  });
  return { games: [...games, ...extra] };
}

function api(role: Role, extra: GameEntry[] = []) {
  return stubApi({
    ...(role === 'guest' ? {} : signedInAs(`${role}1`, role)),
    'GET /api/games': () => jsonResponse(catalogueFor(role, extra)),
    'GET /api/game-status': () => jsonResponse({ wolfscape: true, rocketGame: false }),
    'POST /api/track-game-click': () => jsonResponse({ ok: true }),
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const cardOf = (link: HTMLElement) => {
  const card = link.closest('li');
  if (!card) {
    throw new Error('no card around the link');
  }
  return card;
};

const cardLink = (title: string) => screen.getByRole('link', { name: new RegExp(`^${title}`) });

/** Spec section 6 written out: per role, each kind of game's lock notice and link target. */
const MATRIX: Record<
  Role,
  Record<'public' | 'multiplayer' | 'subscriber', { notice: string | null; href: string }>
> = {
  guest: {
    public: { notice: null, href: '/games?play=CoopAdventure' },
    multiplayer: { notice: 'Login to Play', href: '/login?redirect=%2Fgames%3Fplay%3DRocketGame' },
    subscriber: { notice: 'Login to Play', href: '/login?redirect=/subscribe' },
  },
  user: {
    public: { notice: null, href: '/games?play=CoopAdventure' },
    multiplayer: { notice: null, href: '/games?play=RocketGame' },
    subscriber: { notice: 'Subscribe to Play', href: '/subscribe' },
  },
  subscriber: {
    public: { notice: null, href: '/games?play=CoopAdventure' },
    multiplayer: { notice: null, href: '/games?play=RocketGame' },
    subscriber: { notice: null, href: '/games?play=Pong' },
  },
  admin: {
    public: { notice: null, href: '/games?play=CoopAdventure' },
    multiplayer: { notice: null, href: '/games?play=RocketGame' },
    subscriber: { notice: null, href: '/games?play=Pong' },
  },
};
const TITLES = { public: 'Co-op Adventure', multiplayer: 'Rocket Game', subscriber: 'Pong' };

describe('/games access matrix (spec section 6)', () => {
  for (const role of Object.keys(MATRIX) as Role[]) {
    it(`${role}: lock overlays and where each card leads`, async () => {
      api(role);
      renderApp('/games');
      await screen.findByRole('link', { name: /^Co-op Adventure/ });
      for (const kind of ['public', 'multiplayer', 'subscriber'] as const) {
        const link = cardLink(TITLES[kind]);
        const expected = MATRIX[role][kind];
        expect(link).toHaveAttribute('href', expected.href);
        if (expected.notice) {
          expect(link).toHaveTextContent(expected.notice);
        } else {
          expect(link).not.toHaveTextContent(/to Play/);
        }
      }
    });
  }

  it('a blocked click goes to the destination without counting a click', async () => {
    const { calls } = api('user');
    const { router } = renderApp('/games');
    await userEvent.click(await screen.findByRole('link', { name: /^Pong/ }));
    await waitFor(() => expect(router.location.pathname).toBe('/subscribe'));
    expect(calls.some((call) => call.url === '/api/track-game-click')).toBe(false);
  });

  it.each([
    ['guest', true],
    ['user', true],
    ['subscriber', false],
    ['admin', false],
  ] as const)('%s: a way to the subscription above the list: %s', async (role, isShown) => {
    api(role);
    renderApp('/games');
    await screen.findByRole('link', { name: /^Co-op Adventure/ });
    const link = screen.queryByRole('link', { name: 'subscribe for $10.00 / quarter' });
    if (isShown) {
      expect(link).toHaveAttribute('href', '/subscribe');
    } else {
      expect(link).not.toBeInTheDocument();
    }
  });

  it('a deep link to a game that is not published says so above the list', async () => {
    api('guest');
    renderApp('/games?play=NoSuchGame');
    expect(
      await screen.findByText(
        'There is no published game called “NoSuchGame”. Here are the games you can play.',
      ),
    ).toBeVisible();
    expect(await screen.findByRole('link', { name: /^Co-op Adventure/ })).toBeVisible();
  });

  it('a blocked deep link goes where a click would', async () => {
    api('guest');
    const { router } = renderApp('/games?play=Pong');
    await waitFor(() =>
      expect(`${router.location.pathname}${router.location.search}`).toBe(
        '/login?redirect=/subscribe',
      ),
    );
  });
});

describe('/games list', () => {
  it('has three sections, open by default, each toggled on its own', async () => {
    api('guest');
    renderApp('/games');
    const names = ['Multiplayer Browser Games', 'Made With GameMaker', 'Made With Godot'];
    const toggles = await Promise.all(names.map((name) => screen.findByRole('button', { name })));
    for (const toggle of toggles) {
      expect(toggle).toHaveAttribute('aria-expanded', 'true');
    }
    expect(screen.getByText('F10 toggles game fullscreen.')).toBeVisible();
    const gameMaker = screen.getByRole('button', { name: 'Made With GameMaker' });
    await userEvent.click(gameMaker);
    expect(gameMaker).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('link', { name: /^TopDown RogueLike/ })).toBeNull();
    expect(cardLink('WolfScape')).toBeVisible();
    expect(cardLink('Pong')).toBeVisible();
    await userEvent.click(gameMaker);
    expect(cardLink('TopDown RogueLike')).toBeVisible();
  });

  it('shows each multiplayer server Online or Offline from the status', async () => {
    api('user');
    renderApp('/games');
    const wolf = cardOf(await screen.findByRole('link', { name: /^WolfScape/ }));
    const rocket = cardOf(cardLink('Rocket Game'));
    // every server starts Online; one false reading is one failure, not yet Offline
    await waitFor(() => expect(within(wolf).getByText('Online')).toBeVisible());
    expect(within(rocket).getByText('Online')).toBeVisible();
    expect(within(cardOf(cardLink('Pong'))).queryByText(/Online|Offline/)).toBeNull();
  });
});

describe('the game viewer', () => {
  it('opens on a permitted click after sending the click, and Close returns', async () => {
    const { calls } = api('guest');
    const { router } = renderApp('/games');
    await userEvent.click(await screen.findByRole('link', { name: /^Co-op Adventure/ }));
    expect(calls).toContainEqual({
      method: 'POST',
      url: '/api/track-game-click',
      body: { gameId: 'CoopAdventure' },
    });
    expect(router.location.search).toBe('?play=CoopAdventure');
    const frame = await screen.findByTitle('Co-op Adventure (game)');
    // the frame shows the live build on the games origin, fullscreen allowed one way only
    expect(frame).toHaveAttribute('src', `${GAMES_ORIGIN}/CoopAdventure/1/index.html`);
    expect(frame).toHaveAttribute('width', '100%');
    expect(frame).toHaveAttribute(
      'allow',
      'fullscreen; autoplay; gamepad; accelerometer; gyroscope; clipboard-write',
    );
    expect(frame).not.toHaveAttribute('allowfullscreen');
    // sandboxed without top navigation, in the Tab order, focused for the game
    expect(frame.getAttribute('sandbox')?.split(' ')).toEqual(
      expect.arrayContaining(['allow-scripts', 'allow-same-origin', 'allow-pointer-lock']),
    );
    expect(frame.getAttribute('sandbox')).not.toMatch(/top-navigation/);
    // the game's place in the Tab order: its box, named as the frame, hands focus on to it
    expect(screen.getByRole('group', { name: 'Co-op Adventure (game)' })).toContainElement(frame);
    expect(frame).toHaveFocus();
    expect(screen.getByRole('button', { name: 'Fullscreen' })).toBeVisible();
    const content = frame.closest('[data-device-class]');
    expect(content).toHaveAttribute('data-device-class', 'tablet');
    expect(content).toHaveClass('game-viewer__content--tablet');

    // jsdom's window is 1024 px wide
    // instructions shown by default, toggled
    const toggle = screen.getByRole('button', { name: 'Hide Instructions' });
    expect(screen.getByText(/Same-keyboard co-op/)).toBeVisible();
    await userEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Show Instructions' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    expect(screen.getByText(/Same-keyboard co-op/)).not.toBeVisible();

    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    await screen.findByRole('heading', { name: 'Games', level: 1 });
    expect(router.location.search).toBe('');
  });

  it('closes on Escape and gives focus back to the card that opened it', async () => {
    api('guest');
    const { router } = renderApp('/games');
    await userEvent.click(await screen.findByRole('link', { name: /^Co-op Adventure/ }));
    const frame = await screen.findByTitle('Co-op Adventure (game)');
    expect(frame).toHaveFocus();
    // focus on the site's side of the viewer (the game keeps its own Escape)
    screen.getByRole('button', { name: 'Hide Instructions' }).focus();
    await userEvent.keyboard('{Escape}');
    await screen.findByRole('heading', { name: 'Games', level: 1 });
    expect(router.location.search).toBe('');
    await waitFor(() =>
      expect(screen.getByRole('link', { name: /^Co-op Adventure/ })).toHaveFocus(),
    );
  });

  it('opens from a link and Back returns to the list', async () => {
    api('admin');
    const { router } = renderApp('/games');
    await screen.findByRole('heading', { name: 'Games', level: 1 });
    await act(() => router.navigate('/games?play=Pong'));
    expect(await screen.findByTitle('Pong (game)')).toBeInTheDocument();
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('heading', { name: 'Games', level: 1 })).toBeVisible();
  });
});

describe('the catalogue from GET /api/games', () => {
  const threaded: GameEntry = {
    id: 'ThreadedGodot',
    title: 'Threaded Godot',
    description: 'A Godot 4 export with threads.',
    thumbnail: `${GAMES_ORIGIN}/ThreadedGodot/thumbnail.png`,
    instructions: 'Click to start.',
    section: 'html5',
    access: 'public',
    isMultiplayer: false,
    playUrl: `${GAMES_ORIGIN}/ThreadedGodot/3/index.html`,
    needsIsolation: true,
    version: 3,
    frame: { mode: 'default' },
    touch: 'playable',
    orientation: 'any',
  };

  it('shows "Other HTML5 Games" only when it has games', async () => {
    api('guest');
    const first = renderApp('/games');
    await screen.findByRole('link', { name: /^Co-op Adventure/ });
    expect(screen.queryByRole('button', { name: 'Other HTML5 Games' })).toBeNull();
    first.unmount();

    api('guest', [threaded]);
    renderApp('/games');
    expect(await screen.findByRole('button', { name: 'Other HTML5 Games' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(cardLink('Threaded Godot')).toBeVisible();
  });

  it('opens a game that needs isolation as a page load the server isolates', async () => {
    api('guest', [threaded]);
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, search: '' });
    renderApp('/games');
    const link = await screen.findByRole('link', { name: /^Threaded Godot/ });
    expect(link).toHaveAttribute('href', '/games?play=ThreadedGodot&isolated=1');

    // a direct link to the viewer without isolated=1 goes there too
    api('guest', [threaded]);
    renderApp('/games?play=ThreadedGodot');
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('/games?play=ThreadedGodot&isolated=1'),
    );
  });

  it('shows the viewer with the fresh play URL a subscriber gets, and a message when loading fails', async () => {
    api('subscriber');
    renderApp('/games?play=Pong');
    expect(await screen.findByTitle('Pong (game)')).toHaveAttribute(
      'src',
      `${GAMES_ORIGIN}/g/grant123/Pong/1/index.html`,
    );

    stubApi({ 'GET /api/games': () => apiError(503, 'Service unavailable') });
    renderApp('/games');
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to load the games');
  });
});
