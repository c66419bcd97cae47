import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { renderApp, stubApi } from '../../test/render-app';

function currentThumbnail() {
  return screen
    .getAllByRole('button', { name: /^Thumbnail \d+$/ })
    .filter((button) => button.getAttribute('aria-current') === 'true');
}

describe('GalleryPage', () => {
  it('opens a project from the grid, moves with wrap-around and closes by keyboard', async () => {
    stubApi();
    const user = userEvent.setup();
    const { router } = renderApp('/Gallery');
    await user.click(await screen.findByRole('link', { name: 'Prototype Online View Details' }));

    expect(await screen.findByRole('heading', { name: 'Prototype Online' })).toHaveFocus();
    expect(router.location.search).toBe('?project=item2&media=1');
    expect(screen.getByRole('link', { name: 'View Repository' })).toHaveAttribute(
      'target',
      '_blank',
    );

    await user.click(screen.getByRole('button', { name: 'Previous Media' }));
    expect(currentThumbnail()).toEqual([screen.getByRole('button', { name: 'Thumbnail 3' })]);
    expect(screen.getByText('3 / 3')).toBeInTheDocument();
    expect(router.location.search).toBe('?project=item2&media=3');

    await user.keyboard('{ArrowRight}');
    expect(screen.getByText('1 / 3')).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}');
    expect(screen.getByText('3 / 3')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Thumbnail 2' }));
    expect(screen.getByText('2 / 3')).toBeInTheDocument();
    expect(screen.getByText(/The lobby: players join/)).toBeInTheDocument();

    await user.keyboard('{Escape}');
    expect(router.location.search).toBe('');
    expect(
      await screen.findByRole('link', { name: 'Prototype Online View Details' }),
    ).toHaveFocus();
  });

  it('moves to the next and previous item with a sideways swipe, not with a scroll', async () => {
    stubApi();
    renderApp('/Gallery?project=item2&media=1');
    const stage = (await screen.findByText('1 / 3')).parentElement?.querySelector(
      '.gallery-viewer__stage',
    );
    if (!stage) {
      throw new Error('no stage');
    }
    const swipe = (from: [number, number], to: [number, number]) => {
      fireEvent.touchStart(stage, { touches: [{ clientX: from[0], clientY: from[1] }] });
      fireEvent.touchEnd(stage, { changedTouches: [{ clientX: to[0], clientY: to[1] }] });
    };
    swipe([300, 200], [120, 210]);
    expect(screen.getByText('2 / 3')).toBeInTheDocument();
    swipe([100, 200], [300, 190]);
    swipe([100, 200], [300, 190]);
    expect(screen.getByText('3 / 3')).toBeInTheDocument();
    // mostly up or down (a page scroll), or too short: no move
    swipe([200, 400], [260, 100]);
    swipe([200, 200], [230, 200]);
    expect(screen.getByText('3 / 3')).toBeInTheDocument();
  });

  it("names each card's thumbnail by its project title", async () => {
    stubApi();
    renderApp('/Gallery');
    const card = await screen.findByRole('link', { name: 'ProjectX View Details' });
    expect(within(card).getByRole('img')).toHaveAccessibleName('ProjectX');
    expect(screen.getAllByRole('img').map((image) => image.getAttribute('alt'))).toEqual([
      'Visuals and VFX',
      'Prototype Online',
      'ProjectX',
    ]);
  });

  it('has no repository link for a project without one', async () => {
    stubApi();
    renderApp('/Gallery?project=item1&media=2');
    expect(await screen.findByRole('heading', { name: 'Visuals and VFX' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View Repository' })).toBeNull();
    expect(screen.getByRole('img', { name: 'Visuals and VFX' })).toHaveAttribute(
      'src',
      '/assets/gallery/vfx-plasma.webp',
    );
  });
});
