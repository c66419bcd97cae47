import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { apiError, jsonResponse, renderApp, signedInAs, stubApi } from '../test/render-app';

async function topBar() {
  return within(await screen.findByRole('banner'));
}

describe('top bar', () => {
  it('shows Guest and a Login link for anonymous visitors', async () => {
    stubApi();
    renderApp('/');
    const bar = await topBar();
    expect(bar.getByText('Guest')).toBeInTheDocument();
    expect(bar.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(bar.queryByRole('button', { name: 'Logout' })).not.toBeInTheDocument();
  });

  it("sends the Login link back to the visitor's page, and keeps a sign-in page's destination", async () => {
    stubApi();
    const { router } = renderApp('/Gallery?project=tanks');
    const bar = await topBar();
    expect(bar.getByRole('link', { name: 'Login' })).toHaveAttribute(
      'href',
      '/login?redirect=%2FGallery%3Fproject%3Dtanks',
    );
    await router.navigate('/register?redirect=/games');
    await waitFor(() =>
      expect(bar.getByRole('link', { name: 'Login' })).toHaveAttribute(
        'href',
        '/login?redirect=%2Fgames',
      ),
    );
  });

  it('shows the main links in lower case', async () => {
    stubApi();
    renderApp('/');
    const bar = await topBar();
    expect(bar.getByRole('link', { name: 'Games' })).toHaveAttribute('href', '/games');
    expect(bar.getByRole('link', { name: 'Gallery' })).toHaveAttribute('href', '/gallery');
    expect(bar.getByRole('link', { name: 'Tutorials' })).toHaveAttribute('href', '/tutorials');
  });

  it('shows an admin with a link to the profile and the Admin badge', async () => {
    stubApi(signedInAs('alice', 'admin'));
    renderApp('/');
    const bar = await topBar();
    expect(await bar.findByRole('link', { name: 'alice' })).toHaveAttribute('href', '/profile');
    expect(bar.getByText('Admin')).toBeInTheDocument();
    expect(bar.queryByText('Guest')).not.toBeInTheDocument();
  });

  it('offers Subscribe to a signed-in user', async () => {
    stubApi(signedInAs('ann', 'user'));
    renderApp('/');
    const bar = await topBar();
    await bar.findByRole('link', { name: 'ann' });
    expect(bar.getByRole('link', { name: 'Subscribe' })).toHaveAttribute('href', '/subscribe');
  });

  it.each(['subscriber', 'admin'] as const)('offers no Subscribe to a %s', async (role) => {
    stubApi(signedInAs('sam', role));
    renderApp('/');
    const bar = await topBar();
    await bar.findByRole('link', { name: 'sam' });
    expect(bar.queryByRole('link', { name: 'Subscribe' })).not.toBeInTheDocument();
  });

  it('shows the Sub badge for subscribers and no badge for users', async () => {
    stubApi(signedInAs('sam', 'subscriber'));
    renderApp('/');
    expect((await topBar()).getByText('Sub')).toBeInTheDocument();
  });

  it('shows no badge text for plain users', async () => {
    stubApi(signedInAs('uma', 'user'));
    renderApp('/');
    const bar = await topBar();
    expect(await bar.findByRole('link', { name: 'uma' })).toBeInTheDocument();
    expect(bar.queryByText('Sub')).not.toBeInTheDocument();
    expect(bar.queryByText('Admin')).not.toBeInTheDocument();
  });

  it('logs out and becomes Guest', async () => {
    stubApi({
      ...signedInAs('alice', 'user'),
      'POST /api/auth/logout': () => jsonResponse({ message: 'Logged out' }),
    });
    renderApp('/');
    const bar = await topBar();
    await userEvent.click(await bar.findByRole('button', { name: 'Logout' }));
    expect(await bar.findByText('Guest')).toBeInTheDocument();
  });

  it('keeps the user when logout fails', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    stubApi({
      ...signedInAs('alice', 'user'),
      'POST /api/auth/logout': () => apiError(500, 'Boom'),
    });
    renderApp('/');
    const bar = await topBar();
    await userEvent.click(await bar.findByRole('button', { name: 'Logout' }));
    expect(await bar.findByRole('button', { name: 'Logout' })).toBeEnabled();
    expect(bar.getByRole('link', { name: 'alice' })).toBeInTheDocument();
    expect(warn).toHaveBeenCalledWith('Logout failed', expect.anything());
  });

  it('shows the footer with the current year and profile links', async () => {
    stubApi();
    renderApp('/');
    const footer = within(await screen.findByRole('contentinfo'));
    expect(footer.getByText(new RegExp(`© ${new Date().getFullYear()}`))).toBeInTheDocument();
    expect(footer.getByRole('link', { name: 'GitHub' })).toHaveAttribute('href');
    expect(footer.getByRole('link', { name: 'LinkedIn' })).toHaveAttribute('href');
  });
});
