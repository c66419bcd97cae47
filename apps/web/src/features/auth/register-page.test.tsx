import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { apiError, jsonResponse, renderApp, stubApi } from '../../test/render-app';

async function fill(fields: {
  username: string;
  email?: string;
  password: string;
  confirm: string;
}) {
  await userEvent.type(await screen.findByLabelText('Username'), fields.username);
  if (fields.email) {
    await userEvent.type(screen.getByLabelText('Email (optional)'), fields.email);
  }
  await userEvent.type(screen.getByLabelText('Password'), fields.password);
  await userEvent.type(screen.getByLabelText('Confirm Password'), fields.confirm);
}

const registerCalls = (calls: { url: string }[]) =>
  calls.filter((call) => call.url === '/api/auth/register');

describe('register page', () => {
  it('says whether the passwords match while typing', async () => {
    stubApi();
    renderApp('/register');
    await userEvent.type(await screen.findByLabelText('Password'), 'secret-password');
    expect(screen.queryByText('Passwords match')).not.toBeInTheDocument();
    expect(screen.queryByText('Passwords do not match')).not.toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Confirm Password'), 'secret');
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Confirm Password'), '-password');
    expect(screen.getByText('Passwords match')).toBeInTheDocument();
  });

  it('refuses mismatched passwords without sending a request', async () => {
    const { calls } = stubApi();
    renderApp('/register');
    await fill({ username: 'newbie', password: 'secret-password', confirm: 'other-password' });
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Passwords do not match');
    expect(registerCalls(calls)).toHaveLength(0);
  });

  it('drops the mismatch box once the confirmation is fixed, leaving only "Passwords match"', async () => {
    stubApi();
    renderApp('/register');
    await fill({ username: 'newbie', password: 'secret-password', confirm: 'other-password' });
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Passwords do not match');

    const confirm = screen.getByLabelText('Confirm Password');
    await userEvent.clear(confirm);
    await userEvent.type(confirm, 'secret-password');

    expect(screen.getByText('Passwords match')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Passwords do not match')).not.toBeInTheDocument();
  });

  it("explains an invalid email in the spec's words, without sending a request", async () => {
    const { calls } = stubApi();
    renderApp('/register');
    // the browser accepts 'ann@host'; the site asks for a dot in the domain
    await fill({
      username: 'newbie',
      email: 'ann@host',
      password: 'secret-password',
      confirm: 'secret-password',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^Please enter a valid email address$/,
    );
    expect(registerCalls(calls)).toHaveLength(0);
  });

  it('registers and goes to /login', async () => {
    const { calls } = stubApi({
      'POST /api/auth/register': () =>
        jsonResponse(
          { message: 'Registered', user: { id: '9', username: 'newbie', role: 'user' } },
          201,
        ),
    });
    const { router } = renderApp('/register');
    await fill({
      username: 'newbie',
      email: 'newbie@example.com',
      password: 'secret-password',
      confirm: 'secret-password',
    });
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/login');
    expect(registerCalls(calls)).toEqual([
      expect.objectContaining({
        body: { username: 'newbie', email: 'newbie@example.com', password: 'secret-password' },
      }),
    ]);
  });

  it('keeps where the visitor was going: register, then login, then the game', async () => {
    stubApi({
      'POST /api/auth/register': () =>
        jsonResponse(
          { message: 'Registered', user: { id: '9', username: 'newbie', role: 'user' } },
          201,
        ),
      'POST /api/auth/login': () =>
        jsonResponse({ message: 'Logged in', user: { id: '9', username: 'newbie', role: 'user' } }),
    });
    const target = '/games?play=WolfScape';
    const { router } = renderApp(`/login?redirect=${encodeURIComponent(target)}`);
    await userEvent.click(await screen.findByRole('link', { name: 'Register' }));
    expect(router.location.pathname).toBe('/register');
    await fill({ username: 'newbie', password: 'secret-password', confirm: 'secret-password' });
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByText('Account created. Please log in.')).toBeInTheDocument();
    expect(router.location.search).toBe(`?redirect=${encodeURIComponent(target)}`);
    await userEvent.type(screen.getByLabelText('Username'), 'newbie');
    await userEvent.type(screen.getByLabelText('Password'), 'secret-password');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    await vi.waitFor(() =>
      expect(`${router.location.pathname}${router.location.search}`).toBe(target),
    );
  });

  it("shows the server's message when registration fails", async () => {
    stubApi({
      'POST /api/auth/register': () => apiError(409, 'Username already taken', 'CONFLICT'),
    });
    renderApp('/register');
    await fill({ username: 'taken', password: 'secret-password', confirm: 'secret-password' });
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Username already taken');
  });

  it("shows 'Registration failed' when the server gives no message", async () => {
    stubApi({ 'POST /api/auth/register': () => new Response('oops', { status: 500 }) });
    renderApp('/register');
    await fill({ username: 'newbie', password: 'secret-password', confirm: 'secret-password' });
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));

    expect(await screen.findByRole('alert')).toHaveTextContent('Registration failed');
  });

  it('links to the login page', async () => {
    stubApi();
    renderApp('/register');
    const main = within(await screen.findByRole('main'));
    expect(await main.findByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
  });
});
