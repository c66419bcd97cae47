import type { StoredMedia } from '@portfolio/types/media';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { apiError, jsonResponse, renderApp, signedInAs, stubApi } from '../../test/render-app';
import { describeMedia, formatDuration } from './admin-media-page';

// the dashboard (one link away) opens a socket; here it must stay offline
vi.mock('../../lib/socket', () => ({
  createSocket: () => ({ connected: false, on: vi.fn(), off: vi.fn(), disconnect: vi.fn() }),
}));

const HASH = 'a'.repeat(64);

const photo: StoredMedia = {
  id: '6f1c1f0e-3a44-4b8e-9a55-0d6f7c2a1b01',
  url: `/media/${HASH}-1280.webp`,
  type: 'image',
  mime: 'image/jpeg',
  bytes: 2_400_000,
  width: 1280,
  height: 853,
  thumbnail: `/media/${HASH}-thumb.webp`,
  variants: [{ src: `/media/${HASH}-1280.webp`, width: 1280, type: 'image/webp' }],
  originalName: 'beach.jpg',
  createdAt: '2026-11-27T10:00:00.000Z',
};

const song: StoredMedia = {
  id: '6f1c1f0e-3a44-4b8e-9a55-0d6f7c2a1b02',
  url: `/media/${'b'.repeat(64)}.mp3`,
  type: 'audio',
  mime: 'audio/mpeg',
  bytes: 3_100_000,
  duration: 185.4,
  thumbnail: '/assets/default_audio_thumbnail.jpg',
  variants: [],
  originalName: 'theme.mp3',
  createdAt: '2026-11-27T09:00:00.000Z',
};

describe('media facts', () => {
  it('writes lengths as m:ss or h:mm:ss and sizes as width × height', () => {
    expect(formatDuration(4)).toBe('0:04');
    expect(formatDuration(185.4)).toBe('3:05');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(describeMedia(photo)).toBe('1280 × 853');
    expect(describeMedia(song)).toBe('3:05');
  });
});

describe('/admin/media', () => {
  it('lists the uploads with their facts and deletes one after asking', async () => {
    let media = [photo, song];
    const { calls } = stubApi({
      ...signedInAs('owner', 'admin'),
      'GET /api/admin/media': () => jsonResponse({ media }),
      [`DELETE /api/admin/media/${song.id}`]: () => {
        media = [photo];
        return new Response(null, { status: 204 });
      },
    });
    renderApp('/admin/media');
    const list = await screen.findByRole('list', { name: 'Uploaded Media' });
    const beach = within(list).getByRole('listitem', { name: 'beach.jpg' });
    expect(beach).toHaveTextContent('1280 × 853');
    expect(beach).toHaveTextContent('2.4 MB');
    expect(within(beach).getByRole('img', { name: 'beach.jpg' })).toHaveAttribute(
      'src',
      photo.thumbnail,
    );
    const theme = within(list).getByRole('listitem', { name: 'theme.mp3' });
    expect(theme).toHaveTextContent('3:05');

    await userEvent.click(within(theme).getByRole('button', { name: 'Delete theme.mp3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Media' });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(within(list).queryByRole('listitem', { name: 'theme.mp3' })).toBeNull(),
    );
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);
  });

  it("shows the server's reason when a delete is refused", async () => {
    stubApi({
      ...signedInAs('owner', 'admin'),
      'GET /api/admin/media': () => jsonResponse({ media: [photo] }),
      [`DELETE /api/admin/media/${photo.id}`]: () =>
        apiError(
          409,
          'This file is still used by a gallery project: remove it there first.',
          'MEDIA_IN_USE',
        ),
    });
    renderApp('/admin/media');
    const item = await screen.findByRole('listitem', { name: 'beach.jpg' });
    await userEvent.click(within(item).getByRole('button', { name: 'Delete beach.jpg' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete Media' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() =>
      expect(
        screen
          .getAllByRole('alert')
          .some((alert) =>
            alert.textContent?.includes('This file is still used by a gallery project'),
          ),
      ).toBe(true),
    );
    expect(screen.getByRole('listitem', { name: 'beach.jpg' })).toBeInTheDocument();
  });

  it('says in the delete confirmation which project or post shows the file', async () => {
    stubApi({
      ...signedInAs('owner', 'admin'),
      'GET /api/admin/media': () => jsonResponse({ media: [photo] }),
      [`GET /api/admin/media/${photo.id}/usage`]: () =>
        jsonResponse({
          usedBy: [
            { kind: 'gallery project', title: 'Tanks' },
            { kind: 'devlog post', title: 'Week 3' },
          ],
        }),
    });
    renderApp('/admin/media');
    const item = await screen.findByRole('listitem', { name: 'beach.jpg' });
    await userEvent.click(within(item).getByRole('button', { name: 'Delete beach.jpg' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Media' });
    await waitFor(() =>
      expect(dialog).toHaveTextContent(
        'beach.jpg is used by the gallery project "Tanks" and the devlog post "Week 3". Remove it there first',
      ),
    );
  });

  it('says in the delete confirmation when nothing shows the file', async () => {
    stubApi({
      ...signedInAs('owner', 'admin'),
      'GET /api/admin/media': () => jsonResponse({ media: [photo] }),
      [`GET /api/admin/media/${photo.id}/usage`]: () => jsonResponse({ usedBy: [] }),
    });
    renderApp('/admin/media');
    const item = await screen.findByRole('listitem', { name: 'beach.jpg' });
    await userEvent.click(within(item).getByRole('button', { name: 'Delete beach.jpg' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Media' });
    await waitFor(() => expect(dialog).toHaveTextContent('No project or post shows it.'));
  });
});
