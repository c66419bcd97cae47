import type { UserDetail } from '@portfolio/types';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { apiError, jsonResponse, renderApp, signedInAs, stubApi } from '../../test/render-app';

vi.mock('socket.io-client', () => ({
  io: () => {
    const socket = { on: () => socket, disconnect: () => socket };
    return socket;
  },
}));

const USER_ID = '33333333-3333-4333-8333-333333333333';

const detail: UserDetail = {
  id: USER_ID,
  username: 'carol',
  role: 'subscriber',
  created_at: '2025-01-01T09:00:00.000Z',
  last_login: '2025-03-07T10:00:00.000Z',
  total_time_spent: 2 * 3600 + 30 * 60,
  subscription_status: 'active',
  subscription_end_date: '2025-06-01T00:00:00.000Z',
  device_info: {
    type: 'mobile',
    os: 'iOS',
    browser: 'Safari',
    screenWidth: 390,
    screenHeight: 844,
  },
  games: [
    {
      game_id: 'Pong',
      game_name: 'Pong',
      playtime: 900,
      last_played: '2025-03-06T20:00:00.000Z',
      save_data: { highScore: 7 },
    },
  ],
  achievements: [
    {
      achievement_name: 'First Point',
      game_id: 'Pong',
      game_name: 'Pong',
      unlocked_at: '2025-03-06T20:01:00.000Z',
    },
  ],
  history: [
    {
      id: '1',
      at: '2025-03-05T08:00:00.000Z',
      action: 'role-change',
      actor_id: 'admin-id',
      actor_username: 'root',
      target_id: USER_ID,
      target_username: 'carol',
      old_value: 'user',
      new_value: 'subscriber',
    },
  ],
};

function detailApi(
  user: UserDetail = detail,
  overrides: Record<string, (body: unknown) => Response> = {},
) {
  return stubApi({
    ...signedInAs('root', 'admin'),
    [`GET /api/users/${USER_ID}`]: () => jsonResponse(user),
    'GET /api/users': () => jsonResponse([]),
    ...overrides,
  });
}

async function openDetail() {
  const view = renderApp(`/admin/users/${USER_ID}`);
  await screen.findByRole('heading', { level: 1, name: 'carol' });
  return view;
}

function card(name: string) {
  return screen.getByRole('region', { name });
}

function detailOf(container: HTMLElement, label: string) {
  return within(container).getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
}

describe('AdminUserPage', () => {
  it('shows every card of the user', async () => {
    detailApi();
    await openDetail();

    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/admin');
    const account = card('Account Information');
    expect(detailOf(account, 'Role')).toBe('subscriber');
    expect(detailOf(account, 'Last Login')).toBe(
      new Date('2025-03-07T10:00:00.000Z').toLocaleString(),
    );
    expect(detailOf(account, 'Total Time')).toBe('2h 30m');

    const device = card('Device Information');
    expect(detailOf(device, 'Type')).toBe('mobile');
    expect(detailOf(device, 'OS')).toBe('iOS');
    expect(detailOf(device, 'Browser')).toBe('Safari');
    expect(detailOf(device, 'Screen Size')).toBe('390 × 844');

    const games = card('Game Statistics');
    expect(games).toHaveTextContent('Pong');
    expect(detailOf(games, 'Playtime')).toBe('15m');
    const saveData = within(games).getByText('Save data');
    expect(saveData.closest('details')).not.toHaveAttribute('open');
    await userEvent.setup().click(saveData);
    expect(saveData.closest('details')).toHaveAttribute('open');
    expect(within(games).getByText(/"highScore": 7/)).toBeVisible();

    expect(card('Achievements')).toHaveTextContent('First Point');
    expect(card('Achievements')).toHaveTextContent('Pong');
    expect(within(card('Subscription Details')).getByText('Active')).toHaveClass(
      'status-badge--green',
    );
    expect(card('History')).toHaveTextContent("root changed carol's role from user to subscriber");
    expect(
      within(card('Danger Zone')).getByRole('button', { name: 'Delete Account' }),
    ).toBeEnabled();
  });

  it('shows the empty states, Never, Unknown and 0', async () => {
    detailApi({
      ...detail,
      last_login: null,
      subscription_status: null,
      subscription_end_date: null,
      device_info: {
        type: 'Unknown',
        os: 'Unknown',
        browser: 'Unknown',
        screenWidth: 0,
        screenHeight: 0,
      },
      games: [],
      achievements: [],
      history: [],
    });
    await openDetail();
    expect(detailOf(card('Account Information'), 'Last Login')).toBe('Never');
    expect(detailOf(card('Device Information'), 'OS')).toBe('Unknown');
    expect(detailOf(card('Device Information'), 'Screen Size')).toBe('0 × 0');
    expect(card('Game Statistics')).toHaveTextContent('No game statistics available');
    expect(card('Achievements')).toHaveTextContent('No achievements unlocked');
    expect(within(card('Subscription Details')).getByText('None')).toBeInTheDocument();
    expect(within(card('Subscription Details')).queryByText('Unknown')).not.toBeInTheDocument();
  });

  it('shows a subscription an admin granted as active, with its start and no end date', async () => {
    detailApi({
      ...detail,
      subscription_status: null,
      subscription_end_date: null,
      subscription_grant: { granted_at: '2025-02-03T10:00:00.000Z', ends_at: null },
    });
    await openDetail();
    const subscription = card('Subscription Details');
    expect(within(subscription).getByText('Active')).toHaveClass('status-badge--green');
    expect(within(subscription).getByText('Granted by an admin')).toBeVisible();
    expect(detailOf(subscription, 'Start Date')).toBe(
      new Date('2025-02-03T10:00:00.000Z').toLocaleDateString(),
    );
    expect(detailOf(subscription, 'End Date')).toBe('No end date');
  });

  it('sets and removes the end of a granted subscription, then shows it and its history', async () => {
    let current: UserDetail = {
      ...detail,
      subscription_status: null,
      subscription_end_date: null,
      subscription_grant: { granted_at: '2025-02-03T10:00:00.000Z', ends_at: null },
    };
    const chosen = new Date(2031, 4, 20).toISOString(); // local midnight of 20 May 2031
    const { calls } = detailApi(current, {
      [`GET /api/users/${USER_ID}`]: () => jsonResponse(current),
      [`PUT /api/users/${USER_ID}/subscription-grant`]: (body) => {
        const endsAt = (body as { ends_at: string | null }).ends_at;
        current = {
          ...current,
          subscription_grant: { granted_at: '2025-02-03T10:00:00.000Z', ends_at: endsAt },
          history: [
            {
              id: String(current.history.length + 1),
              at: '2025-03-08T08:00:00.000Z',
              actor_id: 'admin-id',
              actor_username: 'root',
              target_id: USER_ID,
              target_username: 'carol',
              action: 'grant-end',
              old_value: current.subscription_grant?.ends_at ?? null,
              new_value: endsAt,
            },
            ...current.history,
          ],
        };
        return jsonResponse({
          message: endsAt ? 'End date saved' : 'End date removed',
          subscription_grant: current.subscription_grant,
        });
      },
    });
    await openDetail();
    const subscription = card('Subscription Details');
    const input = within(subscription).getByLabelText('Granted subscription ends on');
    expect(
      within(subscription).queryByRole('button', { name: 'Remove End Date' }),
    ).not.toBeInTheDocument();
    fireEvent.change(input, { target: { value: '2031-05-20' } });
    await userEvent.click(within(subscription).getByRole('button', { name: 'Save End Date' }));
    expect(await within(subscription).findByText('End date saved')).toBeVisible();
    await waitFor(() =>
      expect(detailOf(subscription, 'End Date')).toBe(new Date(chosen).toLocaleDateString()),
    );
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ ends_at: chosen });
    expect(card('History')).toHaveTextContent(
      `root set carol's granted subscription to end on ${new Date(chosen).toLocaleDateString()}`,
    );

    await userEvent.click(within(subscription).getByRole('button', { name: 'Remove End Date' }));
    expect(await within(subscription).findByText('End date removed')).toBeVisible();
    await waitFor(() => expect(detailOf(subscription, 'End Date')).toBe('No end date'));
    expect(card('History')).toHaveTextContent(
      "root removed the end of carol's granted subscription",
    );
  });

  it("says 'No such user' with a link back for an id the server does not know", async () => {
    stubApi({
      ...signedInAs('root', 'admin'),
      [`GET /api/users/${USER_ID}`]: () => apiError(404, 'Not found', 'NOT_FOUND'),
    });
    const { router } = renderApp(`/admin/users/${USER_ID}`);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/^No such user/);
    expect(alert).not.toHaveTextContent('must be a valid user id');
    await userEvent.click(within(alert).getByRole('link', { name: 'Back to User Management' }));
    expect(router.location.pathname).toBe('/admin');
  });

  it("shows the server's message when the detail fails otherwise", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    stubApi({
      ...signedInAs('root', 'admin'),
      [`GET /api/users/${USER_ID}`]: () => apiError(503, 'Database unavailable', 'UNAVAILABLE'),
    });
    renderApp(`/admin/users/${USER_ID}`);
    expect(await screen.findByRole('alert')).toHaveTextContent('Database unavailable');
  });

  it('deletes after confirmation and returns to /admin with the success message', async () => {
    const user = userEvent.setup();
    const { calls } = detailApi(detail, {
      [`DELETE /api/users/${USER_ID}`]: () =>
        jsonResponse({ message: 'User deleted successfully' }),
    });
    const { router } = await openDetail();

    await user.click(screen.getByRole('button', { name: 'Delete Account' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Account' });
    expect(dialog).toHaveTextContent(
      'Are you sure you want to delete this user? This action cannot be undone.',
    );
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'DELETE')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Account' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete Account' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    await waitFor(() => expect(router.location.pathname).toBe('/admin'));
    expect(await screen.findByText('User deleted successfully: carol')).toBeVisible();
    expect(calls.filter((call) => call.method === 'DELETE').map((call) => call.url)).toEqual([
      `/api/users/${USER_ID}`,
    ]);
  });

  it("shows the server's message or 'Error deleting user' when deletion fails", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const user = userEvent.setup();
    let answer = apiError(409, 'You cannot delete your own account', 'CONFLICT');
    detailApi(detail, { [`DELETE /api/users/${USER_ID}`]: () => answer });
    await openDetail();
    const danger = card('Danger Zone');

    const confirmDelete = async () => {
      await user.click(within(danger).getByRole('button', { name: 'Delete Account' }));
      await user.click(
        within(screen.getByRole('dialog', { name: 'Delete Account' })).getByRole('button', {
          name: 'Delete',
        }),
      );
    };
    await confirmDelete();
    expect(await within(danger).findByRole('alert')).toHaveTextContent(
      'You cannot delete your own account',
    );
    answer = new Response('', { status: 500 });
    await confirmDelete();
    await waitFor(() =>
      expect(within(danger).getByRole('alert')).toHaveTextContent('Error deleting user'),
    );
  });
});
