import type { Profile } from '@portfolio/types';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import {
  apiError,
  jsonResponse,
  renderApp,
  signedInAs,
  stubApi,
  type RecordedCall,
} from '../../test/render-app';

const baseProfile: Profile = {
  username: 'ann',
  email: null,
  email_confirmed: false,
  subscription_mail: true,
  role: 'subscriber',
  subscription_status: 'past_due',
  subscription_start_date: '2025-01-15T10:00:00.000Z',
  subscription_end_date: '2025-04-15T10:00:00.000Z',
  total_time_spent: 3 * 3600 + 25 * 60 + 10,
  games: [
    {
      game_id: 'Pong',
      game_name: 'Pong',
      playtime: 40 * 60,
      last_played: '2025-03-01T12:00:00.000Z',
    },
    { game_id: 'WolfScape', game_name: 'WolfScape', playtime: 59, last_played: null },
  ],
  achievements: [
    {
      achievement_name: 'First Point',
      game_id: 'Pong',
      game_name: 'Pong',
      unlocked_at: '2025-03-01T12:05:00.000Z',
    },
  ],
};

function profileApi(
  profile: Profile = baseProfile,
  overrides: Record<string, (body: unknown) => Response> = {},
) {
  return stubApi({
    ...signedInAs('ann', profile.role),
    'GET /api/user/profile': () => jsonResponse(profile),
    ...overrides,
  });
}

async function openProfile() {
  const view = renderApp('/profile');
  await screen.findByRole('heading', { name: 'Account Information' });
  return view;
}

function card(name: string) {
  return screen.getByRole('region', { name });
}

/** The value of a <dt> label inside an element. */
function detail(container: HTMLElement, label: string): string | null | undefined {
  return within(container).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
}

function callsTo(calls: RecordedCall[], url: string) {
  return calls.filter((call) => call.url === url);
}

describe('ProfilePage', () => {
  it('shows account, subscription and usage from the profile call', async () => {
    profileApi();
    await openProfile();

    const account = card('Account Information');
    expect(detail(account, 'Username')).toBe('ann');
    expect(detail(account, 'Email')).toBe('Not set');
    expect(within(account).getByText('Sub')).toHaveClass('badge--subscriber');

    const subscription = card('Subscription Details');
    expect(within(subscription).getByText('Past Due')).toHaveClass('status-badge--red');
    expect(detail(subscription, 'Start Date')).toBe(
      new Date('2025-01-15T10:00:00.000Z').toLocaleDateString(),
    );
    expect(detail(subscription, 'Next Payment Date/End Date')).toBe(
      new Date('2025-04-15T10:00:00.000Z').toLocaleDateString(),
    );

    const usage = card('Usage Statistics');
    expect(detail(usage, 'Total Time')).toBe('3h 25m');
    expect(within(usage).getByText(/Total time counts every page of the site/)).toBeVisible();
    const games = within(usage)
      .getAllByRole('listitem')
      .filter((item) => item.closest('ul')?.classList.contains('game-usage'));
    expect(games[0]).toHaveTextContent('Pong');
    expect(games[0]).toHaveTextContent('Playtime 40m');
    expect(within(usage).getByRole('list', { name: 'Pong achievements' })).toHaveTextContent(
      'First Point',
    );
    expect(games[1]).toHaveTextContent('Playtime 0m');
    expect(games[1]).toHaveTextContent('No achievements yet.');
  });

  it('asks nothing about the subscription while an admin must set up two-factor sign-in first', async () => {
    const { calls } = profileApi(
      { ...baseProfile, role: 'admin' },
      {
        'GET /api/auth/current-user': () =>
          jsonResponse({
            user: { id: 'id-ann', username: 'ann', role: 'admin' },
            twoFactorSetupRequired: true,
          }),
        'GET /api/me/2fa': () =>
          jsonResponse({ enabled: false, recoveryCodesLeft: 0, isRequired: true }),
      },
    );
    await openProfile();
    await screen.findByText('Admins must use two-factor sign-in. Set it up to continue.');
    // the server answers 403 to anything else until the setup is done
    expect(callsTo(calls, '/api/subscription')).toEqual([]);
  });

  it("shows '0m', no games and subscription 'None' for a new account", async () => {
    profileApi({
      ...baseProfile,
      role: 'user',
      email: 'ann@example.com',
      email_confirmed: true,
      subscription_status: null,
      subscription_start_date: null,
      subscription_end_date: null,
      total_time_spent: 0,
      games: [],
      achievements: [],
    });
    await openProfile();
    expect(detail(card('Account Information'), 'Role')).toBe('User');
    expect(detail(card('Account Information'), 'Email')).toBe('ann@example.com');
    expect(within(card('Subscription Details')).getByText('None')).toHaveClass(
      'status-badge--gray',
    );
    expect(within(card('Subscription Details')).queryByText('Unknown')).not.toBeInTheDocument();
    expect(detail(card('Subscription Details'), 'Start Date')).toBe('N/A');
    // the way to a subscription from where it says there is none
    expect(
      within(card('Subscription Details')).getByRole('link', { name: 'Subscribe' }),
    ).toHaveAttribute('href', '/subscribe');
    expect(detail(card('Usage Statistics'), 'Total Time')).toBe('0m');
    expect(within(card('Usage Statistics')).getByText('No games played yet.')).toBeVisible();
    // an account with an email changes it rather than setting one
    expect(screen.queryByRole('button', { name: 'Update Email' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change Email' })).toBeVisible();
  });

  it('shows a subscription an admin granted as active, granted by an admin, with no end date', async () => {
    profileApi({
      ...baseProfile,
      subscription_status: null,
      subscription_start_date: null,
      subscription_end_date: null,
      subscription_grant: { granted_at: '2025-02-03T10:00:00.000Z', ends_at: null },
    });
    await openProfile();
    const subscription = card('Subscription Details');
    expect(within(subscription).getByText('Active')).toHaveClass('status-badge--green');
    expect(within(subscription).getByText('Granted by an admin')).toBeVisible();
    expect(detail(subscription, 'Start Date')).toBe(
      new Date('2025-02-03T10:00:00.000Z').toLocaleDateString(),
    );
    expect(detail(subscription, 'Next Payment Date/End Date')).toBe('No end date');
    expect(within(subscription).queryByText('Unknown')).not.toBeInTheDocument();
  });

  it('turns subscription news off with the one mail preference', async () => {
    const user = userEvent.setup();
    const { calls } = profileApi(baseProfile, {
      'POST /api/user/mail-preferences': () => jsonResponse({ message: 'Email preferences saved' }),
    });
    await openProfile();
    const box = screen.getByRole('checkbox', { name: 'Email me news about my subscription' });
    expect(box).toBeChecked();
    await user.click(box);
    expect(box).not.toBeChecked();
    expect(callsTo(calls, '/api/user/mail-preferences')[0]?.body).toEqual({
      subscription_mail: false,
    });
  });

  describe('update email', () => {
    it('checks the address, saves it and closes with the success message', async () => {
      const user = userEvent.setup();
      const { calls } = profileApi(baseProfile, {
        'POST /api/user/update-email': () =>
          jsonResponse({ message: 'Email updated successfully' }),
      });
      await openProfile();

      await user.click(screen.getByRole('button', { name: 'Update Email' }));
      const form = screen.getByRole('form', { name: 'Update email' });
      const input = within(form).getByLabelText('Email');
      expect(input).toHaveFocus();
      await user.type(input, 'ann @example.com');
      await user.click(within(form).getByRole('button', { name: 'Save' }));
      expect(within(form).getByRole('alert')).toHaveTextContent(
        'Please enter a valid email address',
      );
      expect(callsTo(calls, '/api/user/update-email')).toEqual([]);

      await user.clear(input);
      await user.type(input, 'ann@example.com');
      await user.click(within(form).getByRole('button', { name: 'Save' }));
      expect(await screen.findByText('Email updated successfully')).toBeVisible();
      expect(screen.queryByRole('form', { name: 'Update email' })).not.toBeInTheDocument();
      expect(callsTo(calls, '/api/user/update-email')[0]?.body).toEqual({
        email: 'ann@example.com',
      });
      // a new address counts once its link is followed
      expect(detail(card('Account Information'), 'Email')).toMatch(/^ann@example\.com unconfirmed/);
      expect(screen.queryByRole('button', { name: 'Update Email' })).not.toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Change Email' })).toBeVisible();
    });

    it("shows the server's message, or 'Failed to update email'", async () => {
      const user = userEvent.setup();
      let answer = apiError(409, 'That email is already registered', 'CONFLICT');
      profileApi(baseProfile, { 'POST /api/user/update-email': () => answer });
      await openProfile();
      await user.click(screen.getByRole('button', { name: 'Update Email' }));
      const form = screen.getByRole('form', { name: 'Update email' });
      await user.type(within(form).getByLabelText('Email'), 'taken@example.com');
      await user.click(within(form).getByRole('button', { name: 'Save' }));
      expect(await within(form).findByRole('alert')).toHaveTextContent(
        'That email is already registered',
      );

      answer = new Response('gateway down', { status: 502 });
      await user.click(within(form).getByRole('button', { name: 'Save' }));
      await waitFor(() =>
        expect(within(form).getByRole('alert')).toHaveTextContent('Failed to update email'),
      );
    });

    it('closes on Cancel without saving', async () => {
      const user = userEvent.setup();
      const { calls } = profileApi();
      await openProfile();
      await user.click(screen.getByRole('button', { name: 'Update Email' }));
      await user.type(screen.getByLabelText('Email'), 'ann@example.com');
      await user.click(screen.getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('form', { name: 'Update email' })).not.toBeInTheDocument();
      expect(callsTo(calls, '/api/user/update-email')).toEqual([]);
      expect(detail(card('Account Information'), 'Email')).toBe('Not set');
    });
  });

  describe('change password', () => {
    async function openPasswordForm() {
      const user = userEvent.setup();
      await user.click(screen.getByRole('button', { name: 'Change Password' }));
      const form = screen.getByRole('form', { name: 'Change password' });
      const fill = async (current: string, next: string, confirm: string) => {
        for (const [label, value] of [
          ['Current Password', current],
          ['New Password', next],
          ['Confirm New Password', confirm],
        ] as const) {
          const input = within(form).getByLabelText(label);
          await user.clear(input);
          if (value) {
            await user.type(input, value);
          }
        }
        await user.click(within(form).getByRole('button', { name: 'Save' }));
      };
      return { form, fill };
    }

    it('drops the mismatch box once the confirmation is fixed', async () => {
      profileApi();
      await openProfile();
      const { form, fill } = await openPasswordForm();
      await fill('old password', 'new password 1', 'new password 2');
      expect(within(form).getByRole('alert')).toHaveTextContent('Passwords do not match');

      const confirm = within(form).getByLabelText('Confirm New Password');
      await userEvent.clear(confirm);
      await userEvent.type(confirm, 'new password 1');
      expect(within(form).getByText('Passwords match')).toBeInTheDocument();
      expect(within(form).queryByRole('alert')).not.toBeInTheDocument();
    });

    it('refuses mismatched or missing passwords without a request', async () => {
      const { calls } = profileApi();
      await openProfile();
      const { form, fill } = await openPasswordForm();

      await fill('old password', 'new password 1', 'new password 2');
      expect(within(form).getByRole('alert')).toHaveTextContent('Passwords do not match');

      await fill('', 'new password 1', 'new password 1');
      expect(within(form).getByRole('alert')).toHaveTextContent('Current password is required');

      await fill('old password', 'short', 'short');
      expect(within(form).getByRole('alert')).toHaveTextContent(
        'New password must be at least 8 characters',
      );
      expect(callsTo(calls, '/api/user/change-password')).toEqual([]);
    });

    it('changes it and closes with the success message', async () => {
      const { calls } = profileApi(baseProfile, {
        'POST /api/user/change-password': () =>
          jsonResponse({ message: 'Password changed successfully' }),
      });
      await openProfile();
      const { fill } = await openPasswordForm();
      await fill('old password', 'new password 1', 'new password 1');
      expect(await screen.findByText('Password changed successfully')).toBeVisible();
      expect(screen.queryByRole('form', { name: 'Change password' })).not.toBeInTheDocument();
      expect(callsTo(calls, '/api/user/change-password')[0]?.body).toEqual({
        currentPassword: 'old password',
        newPassword: 'new password 1',
      });
    });

    it('shows a wrong current password and keeps the user signed in', async () => {
      profileApi(baseProfile, {
        'POST /api/user/change-password': () =>
          apiError(401, 'Current password is incorrect', 'INVALID_PASSWORD'),
      });
      await openProfile();
      const { form, fill } = await openPasswordForm();
      await fill('wrong password', 'new password 1', 'new password 1');
      expect(await within(form).findByRole('alert')).toHaveTextContent(
        'Current password is incorrect',
      );
      expect(screen.getByRole('banner')).toHaveTextContent('ann');
      expect(screen.queryByText('Guest')).not.toBeInTheDocument();
    });

    it("falls back to 'Failed to change password'", async () => {
      profileApi(baseProfile, {
        'POST /api/user/change-password': () => new Response('', { status: 500 }),
      });
      await openProfile();
      const { form, fill } = await openPasswordForm();
      await fill('old password', 'new password 1', 'new password 1');
      expect(await within(form).findByRole('alert')).toHaveTextContent('Failed to change password');
    });
  });

  it("shows 'Failed to fetch profile data' with a Close button", async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    stubApi({
      ...signedInAs('ann', 'user'),
      'GET /api/user/profile': () => apiError(500, 'Boom', 'INTERNAL'),
    });
    renderApp('/profile');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Failed to fetch profile data');
    await user.click(within(alert).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('signs the visitor out and sends them to login when the session has ended', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    stubApi({
      ...signedInAs('ann', 'user'),
      'GET /api/user/profile': () => apiError(401, 'Authentication required', 'UNAUTHORIZED'),
    });
    const { router } = renderApp('/profile');
    await waitFor(() => expect(router.location.pathname).toBe('/login'));
    expect(screen.getByRole('banner')).toHaveTextContent('Guest');
    expect(await screen.findByText('Your session has ended. Please log in again.')).toBeVisible();
  });
});
