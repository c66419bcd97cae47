import { FORGOT_PASSWORD_MESSAGE, PASSWORD_RESET_MESSAGE } from '@portfolio/types';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { apiError, jsonResponse, renderApp, stubApi } from '../../test/render-app';

describe('password reset pages', () => {
  it('leads from /login to /forgot-password, which sends the name and shows the one answer', async () => {
    const { calls } = stubApi({
      'POST /api/auth/forgot-password': () =>
        jsonResponse({ message: FORGOT_PASSWORD_MESSAGE }, 202),
    });
    const { router } = renderApp('/login');
    await userEvent.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    expect(router.location.pathname).toBe('/forgot-password');
    await userEvent.type(await screen.findByLabelText('Username or email'), ' ann ');
    await userEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(FORGOT_PASSWORD_MESSAGE);
    expect(calls.find((call) => call.url === '/api/auth/forgot-password')?.body).toEqual({
      login: 'ann',
    });
  });

  it('sets a new password with the token from the link', async () => {
    const token = 'A'.repeat(43);
    const { calls } = stubApi({
      'POST /api/auth/reset-password': () => jsonResponse({ message: PASSWORD_RESET_MESSAGE }),
    });
    renderApp(`/reset-password#token=${token}`);
    await userEvent.type(await screen.findByLabelText('New password'), 'a new passphrase');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'a new passphrase!');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Passwords do not match');
    expect(calls.some((call) => call.url === '/api/auth/reset-password')).toBe(false);

    await userEvent.type(screen.getByLabelText('Confirm Password'), '{Backspace}');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('status')).toHaveTextContent(PASSWORD_RESET_MESSAGE);
    expect(calls.find((call) => call.url === '/api/auth/reset-password')?.body).toEqual({
      token,
      password: 'a new passphrase',
    });
  });

  it("shows the server's words for a used or expired link", async () => {
    stubApi({
      'POST /api/auth/reset-password': () =>
        apiError(400, 'This password reset link is invalid or has expired.', 'INVALID_RESET_LINK'),
    });
    renderApp(`/reset-password#token=${'B'.repeat(43)}`);
    await userEvent.type(await screen.findByLabelText('New password'), 'a new passphrase');
    await userEvent.type(screen.getByLabelText('Confirm Password'), 'a new passphrase');
    await userEvent.click(screen.getByRole('button', { name: 'Set new password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('invalid or has expired');
  });
});
