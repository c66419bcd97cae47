import type { AdminGalleryProject } from '@portfolio/types/content';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { apiError, jsonResponse, renderApp, signedInAs, stubApi } from '../../test/render-app';

// the dashboard (one link away) opens a socket; here it must stay offline
vi.mock('../../lib/socket', () => ({
  createSocket: () => ({ connected: false, on: vi.fn(), off: vi.fn(), disconnect: vi.fn() }),
}));

function project(id: string, title: string, published = true): AdminGalleryProject {
  return {
    id,
    title,
    description: `${title}, described.`,
    thumbnail: '/assets/gallery/visuals-card.webp',
    media: [{ type: 'image', source: '/assets/gallery/vfx-plasma.webp' }],
    published,
    position: 0,
    createdAt: '2026-11-20T09:00:00.000Z',
    updatedAt: '2026-11-20T09:00:00.000Z',
  };
}

describe('the admin Content section', () => {
  it('reorders by keyboard with an announcement, publishes, and deletes after asking', async () => {
    let projects = [project('a', 'Alpha'), project('b', 'Beta'), project('c', 'Gamma', false)];
    const { calls } = stubApi({
      ...signedInAs('owner', 'admin'),
      'GET /api/admin/gallery': () => jsonResponse({ projects }),
      'PUT /api/admin/gallery/order': (body) => {
        const { ids } = body as { ids: string[] };
        projects = ids.flatMap((id) => projects.filter((p) => p.id === id));
        return jsonResponse({ projects });
      },
      'PATCH /api/admin/gallery/c': () => {
        projects = projects.map((p) => (p.id === 'c' ? { ...p, published: true } : p));
        return jsonResponse({ project: projects.find((p) => p.id === 'c') });
      },
      'DELETE /api/admin/gallery/b': () => {
        projects = projects.filter((p) => p.id !== 'b');
        return new Response(null, { status: 204 });
      },
    });
    const user = userEvent.setup();
    renderApp('/admin/content');
    const list = await screen.findByRole('list', { name: 'Gallery projects' });
    const rows = () => within(list).getAllByRole('listitem');
    expect(rows().map((row) => row.textContent)).toEqual([
      expect.stringContaining('Alpha'),
      expect.stringContaining('Beta'),
      expect.stringContaining('Gamma'),
    ]);
    expect(rows()[2]).toHaveTextContent('Draft');

    screen.getByRole('button', { name: /^Reorder Gamma/ }).focus();
    await user.keyboard('{Home}');
    expect(screen.getByText('Moved Gamma to position 1 of 3.')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.filter((call) => call.method === 'PUT')).toEqual([
        { method: 'PUT', url: '/api/admin/gallery/order', body: { ids: ['c', 'a', 'b'] } },
      ]),
    );
    expect(rows()[0]).toHaveTextContent('Gamma');

    await user.click(screen.getByRole('button', { name: 'Publish Gamma' }));
    await waitFor(() => expect(rows()[0]).toHaveTextContent('Published'));
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({ published: true });

    await user.click(screen.getByRole('button', { name: 'Delete Beta' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete this project? This action cannot be undone.',
    );
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
  });

  it("keeps a refused delete's message on screen after the list is read again", async () => {
    stubApi({
      ...signedInAs('owner', 'admin'),
      'GET /api/admin/gallery': () =>
        jsonResponse({ projects: [project('a', 'Alpha'), project('b', 'Beta')] }),
      'DELETE /api/admin/gallery/b': () => apiError(409, 'Beta is shown on the home page'),
    });
    const user = userEvent.setup();
    renderApp('/admin/content');
    const list = await screen.findByRole('list', { name: 'Gallery projects' });

    await user.click(screen.getByRole('button', { name: 'Delete Beta' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('alert')).toHaveTextContent('Beta is shown on the home page');
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
  });

  it('moves a project by dragging its handle onto another row', async () => {
    const projects = [project('a', 'Alpha'), project('b', 'Beta'), project('c', 'Gamma')];
    const { calls } = stubApi({
      ...signedInAs('owner', 'admin'),
      'GET /api/admin/gallery': () => jsonResponse({ projects }),
      'PUT /api/admin/gallery/order': () => jsonResponse({ projects }),
    });
    renderApp('/admin/content/gallery');
    const list = await screen.findByRole('list', { name: 'Gallery projects' });
    const data = new Map<string, string>();
    const dataTransfer = {
      setData: (type: string, value: string) => data.set(type, value),
      getData: (type: string) => data.get(type) ?? '',
      effectAllowed: 'all',
    };
    fireEvent.dragStart(screen.getByRole('button', { name: /^Reorder Gamma/ }), { dataTransfer });
    const [firstRow] = within(list).getAllByRole('listitem');
    if (!firstRow) {
      throw new Error('no rows');
    }
    fireEvent.dragOver(firstRow, { dataTransfer });
    fireEvent.drop(firstRow, { dataTransfer });
    expect(screen.getByText('Moved Gamma to position 1 of 3.')).toBeInTheDocument();
    await waitFor(() =>
      expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ ids: ['c', 'a', 'b'] }),
    );
  });

  it('shows each field’s error beside it and sends a valid project as a draft', async () => {
    const { calls } = stubApi({
      ...signedInAs('owner', 'admin'),
      'GET /api/admin/gallery': () => jsonResponse({ projects: [] }),
      'POST /api/admin/gallery': () => jsonResponse({ project: project('jam', 'Jam', false) }, 201),
    });
    const user = userEvent.setup();
    renderApp('/admin/content/gallery');
    await user.click(await screen.findByRole('button', { name: 'Add project' }));
    const form = screen.getByRole('form', { name: 'Add a project' });
    await user.click(within(form).getByRole('button', { name: 'Add project' }));
    expect(within(form).getByText('Title is required')).toBeInTheDocument();
    expect(within(form).getByLabelText('Title')).toHaveFocus();
    expect(within(form).getByLabelText('Title')).toHaveAccessibleDescription('Title is required');

    await user.type(within(form).getByLabelText('Title'), 'Jam');
    await user.type(within(form).getByLabelText('Description'), 'A jam game.');
    await user.type(within(form).getByLabelText('Card thumbnail'), '/assets/a.webp');
    // a new project starts without items: an item by address is added on purpose
    expect(within(form).queryByRole('listitem', { name: 'Item 1' })).toBeNull();
    await user.click(within(form).getByRole('button', { name: 'Add item' }));
    const item = within(form).getByRole('listitem', { name: 'Item 1' });
    await user.type(within(item).getByLabelText('Source'), 'data:text/html,hi');
    await user.click(within(form).getByRole('button', { name: 'Add project' }));
    expect(
      within(item).getByText(
        'Source must be a path on this site (/assets/…) or an http(s) address',
      ),
    ).toBeInTheDocument();
    expect(
      calls.filter((call) => call.url === '/api/admin/gallery' && call.method === 'POST'),
    ).toEqual([]);

    await user.clear(within(item).getByLabelText('Source'));
    await user.type(within(item).getByLabelText('Source'), 'https://youtu.be/aqz-KE-bpKQ');
    await user.selectOptions(within(item).getByLabelText('Type'), 'video');
    await user.click(within(form).getByRole('button', { name: 'Add project' }));
    await waitFor(() =>
      expect(
        calls.find((call) => call.url === '/api/admin/gallery' && call.method === 'POST')?.body,
      ).toEqual({
        title: 'Jam',
        description: 'A jam game.',
        thumbnail: '/assets/a.webp',
        repositoryLink: '',
        media: [{ type: 'video', source: 'https://youtu.be/aqz-KE-bpKQ' }],
        published: false,
      }),
    );
    expect(await screen.findByText('The project was added as a draft.')).toBeInTheDocument();
  });
});
