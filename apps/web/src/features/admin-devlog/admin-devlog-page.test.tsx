import type { AdminPost } from '@portfolio/types/devlog';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { apiError, jsonResponse, renderApp, signedInAs, stubApi } from '../../test/render-app';
import { fromLocalInput, toLocalInput } from './post-form';

// the dashboard (one link away) opens a socket; here it must stay offline
vi.mock('../../lib/socket', () => ({
  createSocket: () => ({ connected: false, on: vi.fn(), off: vi.fn(), disconnect: vi.fn() }),
}));

afterEach(() => {
  vi.unstubAllGlobals();
});

function adminPost(extra: Partial<AdminPost> = {}): AdminPost {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    slug: 'first-post',
    title: 'First post',
    body: 'Hello',
    summary: null,
    gameId: null,
    coverImage: null,
    published: false,
    publishedAt: null,
    status: 'draft',
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...extra,
  };
}

/** The game select's list (empty: these posts name no game). */
const games = () => jsonResponse({ games: [] });

describe('the Devlog editor', () => {
  it("previews the draft through the post page's rendering, inserts an image and publishes", async () => {
    const user = userEvent.setup();
    const { calls } = stubApi({
      ...signedInAs('owner', 'admin'),
      'GET /api/admin/games': games,
      'GET /api/admin/posts/audit': () => jsonResponse({ entries: [] }),
      // the server's rendering (tested on the server): a table, and the image once inserted
      'POST /api/admin/posts/preview': (body) =>
        jsonResponse({
          html: `<table><tbody><tr><td>1</td></tr></tbody></table>${
            String((body as { body: string }).body).includes('![A shot](/assets/shot.png)')
              ? '<p><img src="/assets/shot.png" alt="A shot"></p>'
              : ''
          }`,
        }),
      'POST /api/admin/posts': (body) =>
        jsonResponse(
          {
            post: adminPost({
              title: String((body as { title: string }).title),
              published: true,
              status: 'published',
              publishedAt: '2026-11-27T10:00:00.000Z',
            }),
          },
          201,
        ),
      [`GET /api/admin/posts/${adminPost().id}`]: () =>
        jsonResponse({ post: adminPost({ published: true, status: 'published' }) }),
    });
    const { router } = renderApp('/admin/devlog/new');
    await user.type(await screen.findByLabelText('Title', { exact: true }), 'Big <news>');
    await user.type(screen.getByLabelText('Body (markdown)'), '| a |{enter}|---|{enter}| 1 |');
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(within(preview).getByRole('heading', { level: 1, name: 'Big <news>' })).toBeVisible();
    expect(await within(preview).findByRole('cell', { name: '1' })).toBeVisible();

    await user.type(screen.getByLabelText('Image address'), '/assets/shot.png');
    await user.type(screen.getByLabelText('Image description'), 'A shot');
    await user.click(screen.getByRole('button', { name: 'Insert image' }));
    expect(await within(preview).findByRole('img', { name: 'A shot' })).toHaveAttribute(
      'src',
      '/assets/shot.png',
    );

    await user.click(screen.getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(router.location.pathname).toBe(`/admin/devlog/${adminPost().id}`));
    const sent = calls.find((call) => call.method === 'POST' && call.url === '/api/admin/posts');
    expect(sent?.body).toMatchObject({ title: 'Big <news>', published: true, gameId: null });
    expect(String((sent?.body as { body: string }).body)).toContain('![A shot](/assets/shot.png)');
    expect(await screen.findByRole('status')).toHaveTextContent('Post published');
  });

  it("shows the server's message when a slug is taken", async () => {
    const user = userEvent.setup();
    stubApi({
      ...signedInAs('owner', 'admin'),
      'GET /api/admin/games': games,
      'POST /api/admin/posts': () =>
        apiError(409, "slug: another post already uses 'first-post'; choose another", 'CONFLICT'),
    });
    renderApp('/admin/devlog/new');
    await user.type(await screen.findByLabelText('Title', { exact: true }), 'Again');
    await user.type(screen.getByLabelText('Slug'), 'first-post');
    await user.click(screen.getByRole('button', { name: 'Save Draft' }));
    // the form's own alert (the media uploads keep empty alert regions of their own)
    const message = await screen.findByText(
      "slug: another post already uses 'first-post'; choose another",
    );
    expect(message.closest('[role="alert"]')).not.toBeNull();
  });

  it('asks before deleting, and deletes only on confirmation', async () => {
    const user = userEvent.setup();
    const { calls } = stubApi({
      ...signedInAs('owner', 'admin'),
      'GET /api/admin/games': games,
      'GET /api/admin/posts/audit': () => jsonResponse({ entries: [] }),
      'GET /api/admin/posts': () => jsonResponse({ posts: [] }),
      [`GET /api/admin/posts/${adminPost().id}`]: () => jsonResponse({ post: adminPost() }),
      [`DELETE /api/admin/posts/${adminPost().id}`]: () => new Response(null, { status: 204 }),
    });
    const { router } = renderApp(`/admin/devlog/${adminPost().id}`);
    await user.click(await screen.findByRole('button', { name: 'Delete Post' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete this post?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Delete Post' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete this post?' })).getByRole('button', {
        name: 'Delete Post',
      }),
    );
    await waitFor(() => expect(router.location.pathname).toBe('/admin/devlog'));
    expect(await screen.findByRole('status')).toHaveTextContent('Post deleted');
  });
});

describe('publish dates', () => {
  it('round-trips between ISO time and the local date-time input', () => {
    const iso = '2026-11-27T09:30:00.000Z';
    expect(fromLocalInput(toLocalInput(iso))).toBe(iso);
    expect(fromLocalInput('')).toBeNull();
    expect(toLocalInput(null)).toBe('');
  });
});
