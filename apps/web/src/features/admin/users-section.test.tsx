import type { UserSummary } from '@portfolio/types';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { apiError, jsonResponse, stubApi, type RecordedCall } from '../../test/render-app';
import { UsersSection } from './users-section';

const users: UserSummary[] = [
  {
    id: '11111111-1111-4111-8111-111111111111',
    username: 'alice',
    role: 'admin',
    created_at: '2025-01-01T09:00:00.000Z',
    last_login: '2025-03-07T10:00:00.000Z',
    total_time_spent: 3 * 3600 + 5 * 60,
    subscription_status: null,
    subscription_end_date: null,
  },
  {
    id: '22222222-2222-4222-8222-222222222222',
    username: 'bob',
    role: 'user',
    created_at: '2025-02-01T09:00:00.000Z',
    last_login: null,
    total_time_spent: 0,
    subscription_status: null,
    subscription_end_date: null,
  },
];

function page(list: UserSummary[], total = list.length): Response {
  return new Response(JSON.stringify(list), {
    status: 200,
    headers: { 'Content-Type': 'application/json', 'X-Total-Count': String(total) },
  });
}

function renderSection() {
  render(
    <MemoryRouter initialEntries={['/admin']}>
      <UsersSection />
    </MemoryRouter>,
  );
}

function listCalls(calls: RecordedCall[]) {
  return calls
    .filter((call) => call.url.startsWith('/api/users?'))
    .map((call) => Object.fromEntries(new URL(call.url, 'http://x').searchParams));
}

function row(name: string) {
  const cell = screen.getByRole('rowheader', { name });
  const tableRow = cell.closest('tr');
  if (!tableRow) {
    throw new Error(`no row for ${name}`);
  }
  return tableRow;
}

describe('UsersSection', () => {
  it('lists users newest first with role, dates, Never and total time', async () => {
    const { calls } = stubApi({ 'GET /api/users': () => page(users, 120) });
    renderSection();
    await screen.findByRole('rowheader', { name: 'alice' });

    expect(listCalls(calls)[0]).toEqual({
      sort: 'created_at',
      order: 'desc',
      page: '1',
      pageSize: '50',
    });
    const headers = within(screen.getByRole('table')).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual([
      'Username↕',
      'Role↕',
      'Created At▼',
      'Last Login↕',
      'Total Time↕',
      'Actions',
    ]);
    const alice = row('alice');
    expect(within(alice).getByRole('combobox', { name: 'Role of alice' })).toHaveValue('admin');
    expect(alice).toHaveTextContent(new Date('2025-01-01T09:00:00.000Z').toLocaleString());
    expect(alice).toHaveTextContent('3h 5m');
    expect(within(row('bob')).getByText('Never')).toBeInTheDocument();
    expect(within(row('bob')).getByText('0m')).toBeInTheDocument();
    expect(within(alice).getByRole('link', { name: /View Details/ })).toHaveAttribute(
      'href',
      '/admin/users/11111111-1111-4111-8111-111111111111',
    );
    expect(within(alice).getByRole('link')).toHaveAccessibleName('View Details for alice');
    expect(screen.getByText('120 users')).toBeInTheDocument();
    expect(screen.getByText('Page 1 of 3')).toBeInTheDocument();
  });

  it('searches, sorts and pages through the query parameters', async () => {
    const user = userEvent.setup();
    const { calls } = stubApi({ 'GET /api/users': () => page(users, 120) });
    renderSection();
    await screen.findByRole('rowheader', { name: 'alice' });

    await user.type(screen.getByLabelText('Search users'), 'ali');
    await waitFor(() => expect(listCalls(calls).at(-1)).toMatchObject({ q: 'ali', page: '1' }));
    // one request for the whole word, not one per letter
    expect(listCalls(calls).filter((query) => query.q !== undefined)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: /Username/ }));
    await waitFor(() =>
      expect(listCalls(calls).at(-1)).toMatchObject({ q: 'ali', sort: 'username', order: 'asc' }),
    );
    expect(screen.getByRole('columnheader', { name: /Username/ })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );
    await user.click(screen.getByRole('button', { name: /Username/ }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toMatchObject({ order: 'desc' }));

    await user.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(listCalls(calls).at(-1)).toMatchObject({ page: '2' }));
    expect(screen.getByText('Page 2 of 3')).toBeInTheDocument();
  });

  it('changes a role and shows the role the server answers', async () => {
    const user = userEvent.setup();
    const { calls } = stubApi({
      'GET /api/users': () => page(users),
      // the server has the last word: here it answers another role than the one picked
      'POST /api/update-role': () =>
        jsonResponse({
          message: 'Role updated successfully',
          user: { id: users[1]?.id, username: 'bob', role: 'subscriber' },
        }),
    });
    renderSection();
    const select = await screen.findByRole('combobox', { name: 'Role of bob' });
    await user.selectOptions(select, 'Admin');
    // nothing changes before the admin confirms
    expect(select).toHaveValue('user');
    expect(
      screen.getByText("Change bob's role from User to Admin? It applies at their next request."),
    ).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Change role' }));
    await waitFor(() => expect(select).toHaveValue('subscriber'));
    expect(screen.getByRole('status')).toHaveTextContent('bob is now Subscriber.');
    expect(calls.find((call) => call.url === '/api/update-role')?.body).toEqual({
      userId: users[1]?.id,
      role: 'admin',
    });
  });

  it("keeps the role and shows the server's message when the change fails", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const user = userEvent.setup();
    stubApi({
      'GET /api/users': () => page(users),
      'POST /api/update-role': () => apiError(409, 'You cannot change your own role', 'CONFLICT'),
    });
    renderSection();
    const select = await screen.findByRole('combobox', { name: 'Role of alice' });
    await user.selectOptions(select, 'User');
    await user.click(screen.getByRole('button', { name: 'Change role' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You cannot change your own role');
    expect(select).toHaveValue('admin');
  });

  it('changes nothing when the admin cancels the role change', async () => {
    const user = userEvent.setup();
    const { calls } = stubApi({ 'GET /api/users': () => page(users) });
    renderSection();
    const select = await screen.findByRole('combobox', { name: 'Role of bob' });
    await user.selectOptions(select, 'Admin');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(select).toHaveValue('user');
    expect(calls.some((call) => call.url === '/api/update-role')).toBe(false);
  });

  it("shows the server's message or 'Failed to fetch users'", async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    stubApi({ 'GET /api/users': () => new Response('', { status: 502 }) });
    renderSection();
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch users');
  });

  it('says so when no user matches', async () => {
    stubApi({ 'GET /api/users': () => page([]) });
    renderSection();
    expect(await screen.findByText('No users found.')).toBeInTheDocument();
    expect(screen.getByText('0 users')).toBeInTheDocument();
  });
});
