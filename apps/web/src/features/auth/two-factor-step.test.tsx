import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { apiError, jsonResponse, renderApp, stubApi } from '../../test/render-app';

const ann = { id: '1', username: 'ann', role: 'admin' } as const;

async function passwordStep() {
  await userEvent.type(await screen.findByLabelText('Username'), 'ann');
  await userEvent.type(screen.getByLabelText('Password'), 'secret-password');
  await userEvent.click(screen.getByRole('button', { name: 'Login' }));
}

const challengeAnswer = () =>
  jsonResponse({
    message: 'Enter the code from your authenticator app',
    twoFactorRequired: true,
    challenge: 'challenge-1',
  });

describe("the login's two-factor step", () => {
  it('asks for a code, shows a wrong one refused, then signs in and goes on', async () => {
    let attempts = 0;
    const { calls } = stubApi({
      'POST /api/auth/login': challengeAnswer,
      'POST /api/auth/login/2fa': () => {
        attempts += 1;
        return attempts === 1
          ? apiError(401, 'Invalid authentication code', 'INVALID_TWO_FACTOR_CODE')
          : jsonResponse({ message: 'Login successful', user: ann });
      },
    });
    const { router } = renderApp('/login?redirect=/subscribe');
    await passwordStep();

    const code = await screen.findByLabelText('Authentication code');
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    await userEvent.type(code, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid authentication code');
    expect(router.location.pathname).toBe('/login');

    await userEvent.type(screen.getByLabelText('Authentication code'), '123 456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('heading', { name: 'Subscribe' })).toBeInTheDocument();
    expect(calls.filter((call) => call.url === '/api/auth/login/2fa').at(-1)?.body).toEqual({
      challenge: 'challenge-1',
      code: '123 456',
    });
  });

  it('offers to log in again when the challenge has expired', async () => {
    stubApi({
      'POST /api/auth/login': challengeAnswer,
      'POST /api/auth/login/2fa': () =>
        apiError(
          401,
          'Your sign-in has expired. Please log in again.',
          'TWO_FACTOR_CHALLENGE_EXPIRED',
        ),
    });
    renderApp('/login');
    await passwordStep();
    await userEvent.type(await screen.findByLabelText('Authentication code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Your sign-in has expired');
    await userEvent.click(screen.getByRole('button', { name: 'Log in again' }));
    expect(await screen.findByLabelText('Password')).toBeInTheDocument();
  });

  it('takes an admin who must set up two-factor sign-in to the profile', async () => {
    stubApi({
      'POST /api/auth/login': () =>
        jsonResponse({ message: 'Login successful', user: ann, twoFactorSetupRequired: true }),
    });
    const { router } = renderApp('/login?redirect=/admin');
    await passwordStep();
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/profile');
  });
});
