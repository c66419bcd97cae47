import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { galleryProjects } from '../test/content-fixtures';
import { renderApp, stubApi } from '../test/render-app';

afterEach(() => {
  document.getElementById('page-data')?.remove();
});

describe('the data the server writes into a page', () => {
  it('shows /Gallery from the page without asking the API, and asks it on the next visit', async () => {
    const written = [{ ...galleryProjects[1], title: 'Written into the page' }];
    const element = document.createElement('script');
    element.id = 'page-data';
    element.type = 'application/json';
    element.textContent = JSON.stringify({ gallery: written });
    document.head.append(element);
    const { calls } = stubApi();

    const { router, unmount } = renderApp('/Gallery');
    expect(
      await screen.findByRole('link', { name: 'Written into the page View Details' }),
    ).toBeInTheDocument();
    expect(calls.filter((call) => call.url === '/api/gallery')).toEqual([]);

    // leaving and coming back reads the owner's current gallery
    await router.navigate('/');
    await router.navigate('/Gallery');
    expect(
      await screen.findByRole('link', { name: 'Visuals and VFX View Details' }),
    ).toBeInTheDocument();
    expect(calls.filter((call) => call.url === '/api/gallery')).toHaveLength(1);
    unmount();
  });
});
