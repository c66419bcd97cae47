import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { apiError, jsonResponse, renderApp, stubApi } from '../../test/render-app';

async function fillAndSubmit(username: string, password: string) {
  await userEvent.type(await screen.findByLabelText('Username'), username);
  await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Login' }));
}

const loginOk = () =>
  jsonResponse({ message: 'Logged in', user: { id: '1', username: 'ann', role: 'subscriber' } });

describe('login page', () => {
  it("shows the server's message in a closable box", async () => {
    stubApi({
      'POST /api/auth/login': () => apiError(401, 'Invalid username or password', 'BAD_LOGIN'),
    });
    renderApp('/login');
    await fillAndSubmit('ann', 'wrong-password');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Invalid username or password');
    expect(alert).toHaveTextContent('AUTH_401');
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('answers a username of only spaces with a whole sentence and sends nothing', async () => {
    const { calls } = stubApi();
    renderApp('/login');
    await fillAndSubmit('   ', 'secret-password');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Please enter your username');
    expect(alert).not.toHaveTextContent('username:');
    expect(calls.some((call) => call.url === '/api/auth/login')).toBe(false);
  });

  it("shows 'An unexpected error occurred' when the network fails", async () => {
    stubApi({ 'POST /api/auth/login': () => Promise.reject(new TypeError('Failed to fetch')) });
    renderApp('/login');
    await fillAndSubmit('ann', 'secret-password');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('An unexpected error occurred');
    expect(alert).toHaveTextContent('AUTH_UNKNOWN');
  });

  it('returns a guest sent from a guarded page to that page after login', async () => {
    stubApi({ 'POST /api/auth/login': loginOk });
    const { router } = renderApp('/profile?tab=1');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(`${router.location.pathname}${router.location.search}`).toBe('/login');
    await fillAndSubmit('ann', 'secret-password');

    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    expect(`${router.location.pathname}${router.location.search}`).toBe('/profile?tab=1');
  });

  it('sends the device info and goes to the redirect target', async () => {
    const { calls, fetchMock } = stubApi({ 'POST /api/auth/login': loginOk });
    const { router } = renderApp('/login?redirect=/subscribe');
    await fillAndSubmit('ann', 'secret-password');

    expect(await screen.findByRole('heading', { name: 'Subscribe' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/subscribe');
    expect(screen.getByRole('link', { name: 'ann' })).toBeInTheDocument();
    const login = calls.find((call) => call.url === '/api/auth/login');
    const anyTimezone: unknown = expect.any(String);
    expect(login?.body).toEqual({
      username: 'ann',
      password: 'secret-password',
      deviceInfo: {
        screenResolution: `${window.screen.width}x${window.screen.height}`,
        timezone: anyTimezone,
        language: navigator.language,
        userAgent: navigator.userAgent,
      },
    });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/auth/login',
      expect.objectContaining({ credentials: 'same-origin' }),
    );
  });

  it('ignores an off-site redirect and goes home', async () => {
    stubApi({ 'POST /api/auth/login': loginOk });
    const { router } = renderApp('/login?redirect=//evil.example');
    await fillAndSubmit('ann', 'secret-password');

    expect(await screen.findByText(/passionate game developer/)).toBeInTheDocument();
    expect(router.location.pathname).toBe('/');
  });

  it('links to the register page and has no admin notice by default', async () => {
    stubApi();
    renderApp('/login');
    expect(await screen.findByRole('link', { name: 'Register' })).toHaveAttribute(
      'href',
      '/register',
    );
    expect(screen.queryByText(/Admin sign-in is required/)).not.toBeInTheDocument();
  });
});
