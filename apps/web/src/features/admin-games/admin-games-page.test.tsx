import type { AdminGame, GameBuild } from '@portfolio/types/game-host';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import {
  apiError,
  jsonResponse,
  renderApp,
  signedInAs,
  stubApi,
  type RecordedCall,
} from '../../test/render-app';
import { useAdminGamesStore } from './admin-games-store';

// the dashboard (one link away) opens a socket; here it must stay offline
vi.mock('../../lib/socket', () => ({
  createSocket: () => ({ connected: false, on: vi.fn(), off: vi.fn(), disconnect: vi.fn() }),
}));

function build(version: number, isLive: boolean, extra: Partial<GameBuild> = {}): GameBuild {
  return {
    version,
    engine: 'godot4',
    entry: 'index.html',
    needsThreads: true,
    files: 5,
    bytes: 2_500_000,
    compressedBytes: 600_000,
    leftOut: [],
    uploadedAt: '2026-11-20T10:00:00.000Z',
    uploadedBy: 'owner',
    isLive,
    ...extra,
  };
}

function game(extra: Partial<AdminGame> = {}): AdminGame {
  return {
    id: 'SkyIsland',
    title: 'Sky Island',
    description: 'Float about.',
    thumbnail: '',
    instructions: 'Arrows move.',
    section: 'godot',
    access: 'subscriber',
    isMultiplayer: false,
    playUrl: null,
    needsIsolation: false,
    version: null,
    frame: { mode: 'default' },
    touch: 'playable',
    orientation: 'any',
    published: false,
    order: 7,
    builds: [],
    isBuiltIn: false,
    createdAt: '2026-11-20T09:00:00.000Z',
    updatedAt: '2026-11-20T09:00:00.000Z',
    ...extra,
  };
}

const builtIn = game({
  id: 'TopDownRogueLike',
  title: 'TopDown RogueLike',
  section: 'gamemaker',
  access: 'public',
  published: true,
  order: 2,
  version: 1,
  builds: [build(1, true, { engine: 'html5', needsThreads: false })],
  isBuiltIn: true,
});

/** An admin with these games; `extra` answers other calls (and may replace these). */
function stubAdmin(games: AdminGame[], extra: Parameters<typeof stubApi>[0] = {}) {
  return stubApi({
    ...signedInAs('owner', 'admin'),
    'GET /api/admin/games': () => jsonResponse({ games }),
    'GET /api/admin/tokens': () => jsonResponse({ tokens: [] }),
    'GET /api/admin/games/audit': () => jsonResponse({ entries: [] }),
    ...extra,
  });
}

function callsTo(calls: RecordedCall[], method: string, url: string) {
  return calls.filter((call) => call.method === method && call.url === url);
}

afterEach(() => {
  useAdminGamesStore.setState({ games: null, error: null });
});

describe('/admin/games', () => {
  it('sends guests to the admin sign-in', async () => {
    stubApi();
    const { router } = renderApp('/admin/games/SkyIsland');
    await waitFor(() =>
      expect(`${router.location.pathname}${router.location.search}`).toBe('/login?admin=true'),
    );
  });

  it('sends users who are not admins home, without asking for the games', async () => {
    const { calls } = stubApi(signedInAs('ann', 'user'));
    const { router } = renderApp('/admin/games');
    await waitFor(() => expect(router.location.pathname).toBe('/'));
    expect(calls.some((call) => call.url.startsWith('/api/admin/'))).toBe(false);
  });

  it('lists every game with its section, access, published state, live version and order', async () => {
    stubAdmin([game(), builtIn]);
    renderApp('/admin/games');
    const sky = (await screen.findByRole('link', { name: 'Sky Island' })).closest('li');
    expect(sky).not.toBeNull();
    const item = within(sky as HTMLElement);
    expect(item.getByText('Godot')).toBeInTheDocument();
    expect(item.getByText('Subscriber')).toBeInTheDocument();
    expect(item.getByText('Unpublished')).toBeInTheDocument();
    expect(item.getByText('None')).toBeInTheDocument();
    expect(item.getByText('7')).toBeInTheDocument();
    const rogue = within(
      screen.getByRole('link', { name: 'TopDown RogueLike' }).closest('li') as HTMLElement,
    );
    expect(rogue.getByText('GameMaker')).toBeInTheDocument();
    expect(rogue.getByText('Published')).toBeInTheDocument();
    expect(rogue.getByText('Version 1')).toBeInTheDocument();
    // in the admin's order
    const links = screen
      .getAllByRole('link')
      .filter((link) => ['Sky Island', 'TopDown RogueLike'].includes(link.textContent ?? ''));
    expect(links.map((link) => link.textContent)).toEqual(['TopDown RogueLike', 'Sky Island']);
  });

  it('is reached from the dashboard through the admin navigation', async () => {
    stubAdmin([game()]);
    const { router } = renderApp('/admin/games');
    const nav = await screen.findByRole('navigation', { name: 'Admin' });
    expect(within(nav).getByRole('link', { name: 'Games' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await userEvent.click(within(nav).getByRole('link', { name: 'Dashboard' }));
    await waitFor(() => expect(router.location.pathname).toBe('/admin'));
  });

  it('adds a game and opens its page', async () => {
    const added = game({ id: 'NewOne', title: 'New One', section: 'html5', access: 'public' });
    let games = [builtIn];
    const { calls } = stubAdmin([], {
      'GET /api/admin/games': () => jsonResponse({ games }),
      'POST /api/admin/games': () => {
        games = [builtIn, added];
        return jsonResponse(added, 201);
      },
    });
    const { router } = renderApp('/admin/games');
    await userEvent.click(await screen.findByRole('button', { name: 'Add Game' }));
    const form = within(screen.getByRole('region', { name: 'Add a Game' }));
    await userEvent.type(form.getByLabelText('Game id'), 'NewOne');
    await userEvent.type(form.getByLabelText('Title'), 'New One');
    await userEvent.type(form.getByLabelText('Description'), 'A new game.');
    await userEvent.type(form.getByLabelText('Instructions'), 'Click.');
    await userEvent.selectOptions(form.getByLabelText('Section'), 'Other HTML5');
    await userEvent.type(form.getByLabelText('Order'), '3');
    await userEvent.click(form.getByRole('button', { name: 'Add Game' }));
    await waitFor(() => expect(router.location.pathname).toBe('/admin/games/NewOne'));
    expect(callsTo(calls, 'POST', '/api/admin/games')[0]?.body).toEqual({
      id: 'NewOne',
      title: 'New One',
      description: 'A new game.',
      instructions: 'Click.',
      section: 'html5',
      access: 'public',
      order: 3,
      frame: { mode: 'default' },
      touch: 'playable',
      orientation: 'any',
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'New One' })).toBeVisible();
  });

  it("keeps what was typed and shows the reason when the id or the server's answer is wrong", async () => {
    const { calls } = stubAdmin([builtIn], {
      'POST /api/admin/games': () =>
        apiError(409, 'A game with this id already exists', 'CONFLICT'),
    });
    renderApp('/admin/games');
    await userEvent.click(await screen.findByRole('button', { name: 'Add Game' }));
    const form = within(screen.getByRole('region', { name: 'Add a Game' }));
    await userEvent.type(form.getByLabelText('Game id'), '../up');
    await userEvent.type(form.getByLabelText('Title'), 'Up');
    await userEvent.click(form.getByRole('button', { name: 'Add Game' }));
    expect(await form.findByRole('alert')).toHaveTextContent(
      'Game id must be 1 to 64 letters, digits, _ or -',
    );
    expect(callsTo(calls, 'POST', '/api/admin/games')).toHaveLength(0);

    await userEvent.clear(form.getByLabelText('Game id'));
    await userEvent.type(form.getByLabelText('Game id'), 'TopDownRogueLike');
    await userEvent.click(form.getByRole('button', { name: 'Add Game' }));
    await waitFor(() =>
      expect(form.getByRole('alert')).toHaveTextContent('A game with this id already exists'),
    );
    expect(form.getByLabelText('Game id')).toHaveValue('TopDownRogueLike');
    expect(form.getByLabelText('Title')).toHaveValue('Up');
  });
});

describe('/admin/games/:gameId', () => {
  it('publishes and unpublishes', async () => {
    let current = game({ version: 1, builds: [build(1, true)] });
    const { calls } = stubAdmin([], {
      'GET /api/admin/games': () => jsonResponse({ games: [current] }),
      'PATCH /api/admin/games/SkyIsland': (body) => {
        current = { ...current, ...(body as Partial<AdminGame>) };
        return jsonResponse(current);
      },
    });
    renderApp('/admin/games/SkyIsland');
    await userEvent.click(await screen.findByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('button', { name: 'Unpublish' })).toBeVisible();
    expect(screen.getByText('Published', { selector: '.status-badge' })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Unpublish' }));
    expect(await screen.findByRole('button', { name: 'Publish' })).toBeVisible();
    expect(callsTo(calls, 'PATCH', '/api/admin/games/SkyIsland').map((call) => call.body)).toEqual([
      { published: true },
      { published: false },
    ]);
  });

  it('saves only the fields that changed, and shows a refusal without losing them', async () => {
    let refuse = true;
    const { calls } = stubAdmin([game()], {
      'PATCH /api/admin/games/SkyIsland': () =>
        refuse ? apiError(400, 'title: is too long', 'VALIDATION') : jsonResponse(game()),
    });
    renderApp('/admin/games/SkyIsland');
    const details = within(await screen.findByRole('region', { name: 'Details' }));
    await userEvent.clear(details.getByLabelText('Title'));
    await userEvent.type(details.getByLabelText('Title'), 'Sky Island 2');
    await userEvent.selectOptions(details.getByLabelText('Access'), 'Public');
    await userEvent.click(details.getByRole('button', { name: 'Save Changes' }));
    expect(await details.findByRole('alert')).toHaveTextContent('title: is too long');
    expect(details.getByLabelText('Title')).toHaveValue('Sky Island 2');
    refuse = false;
    await userEvent.click(details.getByRole('button', { name: 'Save Changes' }));
    expect(await details.findByText('Changes saved')).toBeVisible();
    expect(callsTo(calls, 'PATCH', '/api/admin/games/SkyIsland').at(-1)?.body).toEqual({
      title: 'Sky Island 2',
      access: 'public',
    });
  });

  it('sets how the game is shown: a fixed size, keyboard only, landscape', async () => {
    const { calls } = stubAdmin([game()], {
      'PATCH /api/admin/games/SkyIsland': () => jsonResponse(game()),
    });
    renderApp('/admin/games/SkyIsland');
    const details = within(await screen.findByRole('region', { name: 'Details' }));
    expect(details.getByLabelText('Frame')).toHaveValue('default');
    expect(details.queryByLabelText('Width (px)')).toBeNull();
    await userEvent.selectOptions(details.getByLabelText('Frame'), 'Fixed size, scaled to fit');
    await userEvent.type(details.getByLabelText('Width (px)'), '1200');
    await userEvent.click(details.getByRole('button', { name: 'Save Changes' }));
    // a missing height is said before anything is sent
    expect(await details.findByRole('alert')).toHaveTextContent('Frame height');
    await userEvent.type(details.getByLabelText('Height (px)'), '800');
    await userEvent.selectOptions(details.getByLabelText('Touch screens'), 'Keyboard only');
    await userEvent.selectOptions(details.getByLabelText('Orientation'), 'Landscape');
    await userEvent.click(details.getByRole('button', { name: 'Save Changes' }));
    expect(await details.findByText('Changes saved')).toBeVisible();
    expect(callsTo(calls, 'PATCH', '/api/admin/games/SkyIsland')).toHaveLength(1);
    expect(callsTo(calls, 'PATCH', '/api/admin/games/SkyIsland').at(-1)?.body).toEqual({
      frame: { mode: 'fixed', width: 1200, height: 800 },
      touch: 'keyboard-only',
      orientation: 'landscape',
    });
  });

  it("shows the game's history, and loads it again after a change", async () => {
    let current = game({ version: 1, builds: [build(1, true)] });
    const entries = [
      {
        id: 'a1',
        at: '2026-11-20T10:00:00.000Z',
        action: 'build-upload',
        actorUsername: 'owner',
        gameId: 'SkyIsland',
        detail: 'version 1 uploaded (godot4), live',
      },
    ];
    const { calls } = stubAdmin([], {
      'GET /api/admin/games': () => jsonResponse({ games: [current] }),
      'GET /api/admin/games/audit': () => jsonResponse({ entries }),
      'PATCH /api/admin/games/SkyIsland': () => {
        current = { ...current, published: true, updatedAt: '2026-11-20T11:00:00.000Z' };
        entries.unshift({
          id: 'a2',
          at: '2026-11-20T11:00:00.000Z',
          action: 'game-update',
          actorUsername: 'owner',
          gameId: 'SkyIsland',
          // an entry written before the log held sentences, in the raw form: read as a sentence
          detail: 'published: false → true',
        });
        return jsonResponse({ game: current });
      },
    });
    renderApp('/admin/games/SkyIsland');
    const history = within(await screen.findByRole('region', { name: 'History' }));
    expect(await history.findByText(/owner: version 1 uploaded \(godot4\), live/)).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await history.findByText(/owner: Published/)).toBeVisible();
    expect(calls.find((call) => call.url.startsWith('/api/admin/games/audit'))?.url).toBe(
      '/api/admin/games/audit?gameId=SkyIsland',
    );
  });

  it('shows the terminal commands unbroken, each with a Copy button', async () => {
    stubAdmin([game()]);
    const user = userEvent.setup();
    vi.stubGlobal('isSecureContext', true);
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    renderApp('/admin/games/SkyIsland');
    const terminal = within(await screen.findByRole('region', { name: 'Publish from a Terminal' }));
    const npm = terminal.getByLabelText('npm command');
    expect(npm.textContent).toContain('npm run games:publish -- SkyIsland build.zip --site');
    await user.click(terminal.getByRole('button', { name: 'Copy npm command' }));
    expect(writeText).toHaveBeenCalledWith(npm.textContent);
    expect(await terminal.findByText('Copied')).toBeVisible();
    await user.click(terminal.getByRole('button', { name: 'Copy curl command' }));
    expect(writeText).toHaveBeenLastCalledWith(terminal.getByLabelText('curl command').textContent);
    vi.unstubAllGlobals();
  });

  it('lists the versions and makes an earlier one live in one click', async () => {
    let current = game({ version: 2, builds: [build(1, false), build(2, true)] });
    const { calls } = stubAdmin([], {
      'GET /api/admin/games': () => jsonResponse({ games: [current] }),
      'POST /api/admin/games/SkyIsland/builds/1/activate': () => {
        current = { ...current, version: 1, builds: [build(1, true), build(2, false)] };
        return jsonResponse(current);
      },
    });
    renderApp('/admin/games/SkyIsland');
    const versions = within(await screen.findByRole('region', { name: 'Versions' }));
    const items = versions.getAllByRole('listitem');
    expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([
      'Version 2',
      'Version 1',
    ]);
    expect(within(items[0] as HTMLElement).getByText('Live')).toBeVisible();
    expect(within(items[0] as HTMLElement).getByText(/by owner/)).toBeVisible();
    // a threaded build says what isolation asks of the scripts it loads from other sites
    await userEvent.click(within(items[0] as HTMLElement).getByText('Details'));
    expect(
      within(items[0] as HTMLElement).getByText(/CORS or Cross-Origin-Resource-Policy/),
    ).toBeVisible();
    await userEvent.click(versions.getByRole('button', { name: 'Make version 1 live' }));
    expect(await versions.findByText('Version 1 is live')).toBeVisible();
    expect(screen.getByTestId('live-version')).toHaveTextContent('Version 1');
    expect(versions.getByRole('button', { name: 'Make version 2 live' })).toBeVisible();
    expect(callsTo(calls, 'POST', '/api/admin/games/SkyIsland/builds/1/activate')).toHaveLength(1);
  });

  it('deletes a version that is not live after confirmation, and shows the refusal of another', async () => {
    let current = game({ version: 3, builds: [build(1, false), build(2, false), build(3, true)] });
    const { calls } = stubAdmin([], {
      'GET /api/admin/games': () => jsonResponse({ games: [current] }),
      'DELETE /api/admin/games/SkyIsland/builds/1': () => {
        current = { ...current, builds: [build(2, false), build(3, true)] };
        return new Response(null, { status: 204 });
      },
      'DELETE /api/admin/games/SkyIsland/builds/2': () =>
        jsonResponse(
          {
            error: {
              code: 'CONFLICT',
              message: 'Version 2 is live: make another version live before deleting it',
            },
          },
          409,
        ),
    });
    renderApp('/admin/games/SkyIsland');
    const versions = within(await screen.findByRole('region', { name: 'Versions' }));
    // the live version offers no Delete
    expect(versions.queryByRole('button', { name: 'Delete version 3' })).not.toBeInTheDocument();

    await userEvent.click(versions.getByRole('button', { name: 'Delete version 1' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Version' });
    expect(dialog).toHaveTextContent(
      'Delete version 1 of Sky Island and its files (2.5 MB)? A player still on it loses it.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(calls, 'DELETE', '/api/admin/games/SkyIsland/builds/1')).toHaveLength(0);

    await userEvent.click(versions.getByRole('button', { name: 'Delete version 1' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await versions.findByText('Version 1 deleted')).toBeVisible();
    expect(
      versions
        .getAllByRole('listitem')
        .map((item) => within(item).getByRole('heading').textContent),
    ).toEqual(['Version 3', 'Version 2']);

    await userEvent.click(versions.getByRole('button', { name: 'Delete version 2' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(
      await versions.findByText('Version 2 is live: make another version live before deleting it'),
    ).toBeVisible();
    expect(versions.getAllByRole('listitem')).toHaveLength(2);
  });

  it('deletes a game after confirmation, and offers no deletion for a built-in one', async () => {
    let games = [game(), builtIn];
    const { calls } = stubAdmin([], {
      'GET /api/admin/games': () => jsonResponse({ games }),
      'DELETE /api/admin/games/SkyIsland': () => {
        games = [builtIn];
        return new Response(null, { status: 204 });
      },
    });
    const { router } = renderApp('/admin/games/TopDownRogueLike');
    expect(await screen.findByText(/A built-in game cannot be deleted/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Delete Game' })).not.toBeInTheDocument();

    await router.navigate('/admin/games/SkyIsland');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Game' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Game' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(callsTo(calls, 'DELETE', '/api/admin/games/SkyIsland')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: 'Delete Game' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(router.location.pathname).toBe('/admin/games'));
    expect(await screen.findByText('Game deleted')).toBeVisible();
    expect(callsTo(calls, 'DELETE', '/api/admin/games/SkyIsland')).toHaveLength(1);
  });
});

/** A stand-in XMLHttpRequest the test drives: progress, then an answer. */
class FakeXhr {
  static last: FakeXhr | undefined;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown;
  status = 0;
  responseText = '';
  withCredentials = false;
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: unknown) {
    this.body = body;
    FakeXhr.last = this;
  }
  abort() {
    this.onabort?.();
  }
  progress(loaded: number, total: number) {
    this.upload.onprogress?.({ loaded, total, lengthComputable: true } as ProgressEvent);
  }
  respond(status: number, body: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.onload?.();
  }
}

describe('uploading a build', () => {
  it('shows the progress, then what the server detected; a refusal keeps the file to retry', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const current = game({ version: 1, builds: [build(1, true)] });
    stubAdmin([current]);
    renderApp('/admin/games/SkyIsland');
    const upload = within(await screen.findByRole('region', { name: 'Upload a Build' }));
    const zip = new File([new Uint8Array(2000)], 'sky-island.zip', { type: 'application/zip' });
    await userEvent.upload(upload.getByLabelText('Build .zip file'), zip);
    expect(upload.getByText('sky-island.zip')).toBeVisible();

    // the server refuses it: the message shows, the live version and the chosen file stay
    await userEvent.click(upload.getByRole('button', { name: 'Upload Build' }));
    expect(FakeXhr.last?.method).toBe('PUT');
    expect(FakeXhr.last?.url).toBe('/api/admin/games/SkyIsland/build');
    expect(FakeXhr.last?.headers['Content-Type']).toBe('application/zip');
    act(() =>
      FakeXhr.last?.respond(400, {
        error: { code: 'BAD_BUILD', message: 'The zip has no index.html (no start page)' },
      }),
    );
    await waitFor(() =>
      expect(upload.getByRole('alert')).toHaveTextContent(
        'The zip has no index.html (no start page)',
      ),
    );
    expect(upload.getByText('sky-island.zip')).toBeVisible();
    expect(screen.getByTestId('live-version')).toHaveTextContent('Version 1');

    // again, kept off the live slot: progress, then the detection
    await userEvent.click(
      upload.getByRole('checkbox', { name: 'Make this version live as soon as it is uploaded' }),
    );
    await userEvent.click(upload.getByRole('button', { name: 'Upload Build' }));
    expect(FakeXhr.last?.url).toBe('/api/admin/games/SkyIsland/build?activate=false');
    act(() => FakeXhr.last?.progress(1000, 2000));
    expect(upload.getByRole('progressbar')).toHaveValue(50);
    expect(upload.getByText('Uploading: 50% of 2.0 KB')).toBeVisible();
    const uploaded = build(2, false, {
      engine: 'unity',
      needsThreads: false,
      files: 12,
      leftOut: ['Game.exe', '__MACOSX/'],
    });
    act(() =>
      FakeXhr.last?.respond(201, {
        game: { ...current, builds: [build(1, true), uploaded] },
        build: uploaded,
      }),
    );
    expect(await upload.findByText('Version 2 uploaded (not live yet)')).toBeVisible();
    expect(upload.getByText('Unity WebGL')).toBeVisible();
    expect(upload.getByText('2.5 MB')).toBeVisible();
    expect(upload.getByText('600 KB')).toBeVisible();
    expect(upload.getByText('12')).toBeVisible();
    // what the server left out of the build is listed with the detection
    const leftOut = within(upload.getByRole('list', { name: 'Files left out' }));
    expect(leftOut.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Game.exe',
      '__MACOSX/',
    ]);
    expect(upload.queryByRole('progressbar')).not.toBeInTheDocument();
    const versions = within(screen.getByRole('region', { name: 'Versions' }));
    expect(versions.getByRole('button', { name: 'Make version 2 live' })).toBeVisible();
  });

  it('brings the progress into view, says an unpublished game is not shown yet, and drops the stale publish refusal', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    const scrolled = vi.fn();
    Element.prototype.scrollIntoView = scrolled;
    let current = game();
    stubAdmin([], {
      'GET /api/admin/games': () => jsonResponse({ games: [current] }),
      'PATCH /api/admin/games/SkyIsland': () =>
        apiError(409, 'Upload a build of Sky Island before publishing it', 'CONFLICT'),
    });
    renderApp('/admin/games/SkyIsland');
    await userEvent.click(await screen.findByRole('button', { name: 'Publish' }));
    const status = within(screen.getByRole('region', { name: 'Status' }));
    await waitFor(() =>
      expect(status.getByRole('alert')).toHaveTextContent('Upload a build of Sky Island'),
    );

    const upload = within(screen.getByRole('region', { name: 'Upload a Build' }));
    const zip = new File([new Uint8Array(2000)], 'sky-island.zip', { type: 'application/zip' });
    await userEvent.upload(upload.getByLabelText('Build .zip file'), zip);
    await userEvent.click(upload.getByRole('button', { name: 'Upload Build' }));
    const progress = upload.getByRole('progressbar').closest('.upload-progress');
    expect(scrolled).toHaveBeenCalled();
    expect(scrolled.mock.contexts[0]).toBe(progress);

    const uploaded = build(1, true);
    current = { ...current, version: 1, builds: [uploaded] };
    act(() => FakeXhr.last?.respond(201, { game: current, build: uploaded }));
    expect(
      await upload.findByText('Version 1 uploaded; publish the game to show it'),
    ).toBeVisible();
    expect(upload.queryByText(/uploaded and live/)).not.toBeInTheDocument();
    await waitFor(() => expect(status.getByRole('alert')).toBeEmptyDOMElement());
  });

  it('says the uploaded version is live once the game is published after the upload', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    Element.prototype.scrollIntoView = vi.fn();
    let current = game();
    stubAdmin([], {
      'GET /api/admin/games': () => jsonResponse({ games: [current] }),
      'PATCH /api/admin/games/SkyIsland': () => {
        current = { ...current, published: true };
        return jsonResponse({ game: current });
      },
    });
    renderApp('/admin/games/SkyIsland');
    const upload = within(await screen.findByRole('region', { name: 'Upload a Build' }));
    const zip = new File([new Uint8Array(2000)], 'sky-island.zip', { type: 'application/zip' });
    await userEvent.upload(upload.getByLabelText('Build .zip file'), zip);
    await userEvent.click(upload.getByRole('button', { name: 'Upload Build' }));
    const uploaded = build(1, true);
    current = { ...current, version: 1, builds: [uploaded] };
    act(() => FakeXhr.last?.respond(201, { game: current, build: uploaded }));
    expect(
      await upload.findByText('Version 1 uploaded; publish the game to show it'),
    ).toBeVisible();

    await userEvent.click(screen.getByRole('button', { name: 'Publish' }));
    expect(await upload.findByText('Version 1 uploaded and live')).toBeVisible();
    expect(upload.queryByText(/publish the game to show it/)).not.toBeInTheDocument();
  });

  it('refuses a file that is not a .zip before sending it', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
    FakeXhr.last = undefined;
    stubAdmin([game()]);
    renderApp('/admin/games/SkyIsland');
    const upload = within(await screen.findByRole('region', { name: 'Upload a Build' }));
    const image = new File(['x'], 'cover.png', { type: 'image/png' });
    await userEvent.upload(upload.getByLabelText('Build .zip file'), image, { applyAccept: false });
    await waitFor(() => expect(upload.getByRole('alert')).toHaveTextContent('Choose a .zip file'));
    expect(upload.getByRole('button', { name: 'Upload Build' })).toBeDisabled();
    expect(FakeXhr.last).toBeUndefined();
  });
});

describe('API tokens', () => {
  it('creates a token shown once, lists it and revokes it after confirmation', async () => {
    const token = {
      id: 't1',
      name: 'build server',
      createdAt: '2026-11-20T09:00:00.000Z',
      lastUsedAt: null,
    };
    let tokens: (typeof token)[] = [];
    const { calls } = stubAdmin([builtIn], {
      'GET /api/admin/tokens': () => jsonResponse({ tokens }),
      'POST /api/admin/tokens': () => {
        tokens = [token];
        return jsonResponse({ ...token, token: 'pat_secret_value' }, 201);
      },
      'DELETE /api/admin/tokens/t1': () => {
        tokens = [];
        return new Response(null, { status: 204 });
      },
    });
    renderApp('/admin/games');
    const section = within(await screen.findByRole('region', { name: 'API Tokens' }));
    expect(await section.findByText('No tokens yet.')).toBeVisible();
    expect(section.getByLabelText('curl command')).toHaveTextContent(
      'curl -X PUT --data-binary @build.zip',
    );
    // the token comes from the environment (or a prompt), never from the command line
    expect(section.getByLabelText('curl command')).toHaveTextContent(
      'Authorization: Bearer $GAMES_PUBLISH_TOKEN',
    );
    expect(section.getByLabelText('npm command')).toHaveTextContent('npm run games:publish');
    expect(section.getByLabelText('npm command')).toHaveTextContent('GAMES_PUBLISH_TOKEN');
    expect(section.getByLabelText('npm command')).not.toHaveTextContent('--token');

    await userEvent.click(section.getByRole('button', { name: 'Create Token' }));
    await waitFor(() => expect(section.getByRole('alert')).toHaveTextContent('Name is required'));
    await userEvent.type(section.getByLabelText('Token name'), 'build server');
    await userEvent.click(section.getByRole('button', { name: 'Create Token' }));
    expect(await section.findByTestId('new-token')).toHaveTextContent('pat_secret_value');
    expect(callsTo(calls, 'POST', '/api/admin/tokens')[0]?.body).toEqual({
      name: 'build server',
    });
    expect(await section.findByText('build server', { selector: 'p' })).toBeVisible();
    expect(section.getByText(/Last used Never/)).toBeVisible();

    await userEvent.click(section.getByRole('button', { name: 'Revoke build server' }));
    const dialog = screen.getByRole('dialog', { name: 'Revoke Token' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await section.findByText('No tokens yet.')).toBeVisible();
    expect(section.queryByTestId('new-token')).not.toBeInTheDocument();
    expect(callsTo(calls, 'DELETE', '/api/admin/tokens/t1')).toHaveLength(1);
  });
});
