import {
  ROLES,
  type Role,
  type SortOrder,
  USER_PAGE_SIZE_DEFAULT,
  type UserSortField,
  type UserSummary,
} from '@portfolio/types';
import { useEffect, useId, useState } from 'react';
import { Link } from 'react-router';

import { formatDateTime, formatDuration } from '../../lib/format';
import { serverMessageOr } from '../../lib/server-message';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Cell, ResponsiveTable } from '../../ui/responsive-table';
import { listUsers, updateRole, type UserPage } from './users-api';
import { ErrorAlert } from '../../ui/error-alert';

export const USERS_ERROR = 'Failed to fetch users';
export const ROLE_ERROR = 'Failed to update role';
/** Typing pauses this long before the table asks the server. */
export const SEARCH_DELAY_MS = 300;

const ROLE_LABELS: Record<Role, string> = {
  user: 'User',
  subscriber: 'Subscriber',
  admin: 'Admin',
};

interface Column {
  field: UserSortField;
  label: string;
  /** The order a first click sorts by: names A–Z, times newest or longest first. */
  firstOrder: SortOrder;
}

const COLUMNS: readonly Column[] = [
  { field: 'username', label: 'Username', firstOrder: 'asc' },
  { field: 'role', label: 'Role', firstOrder: 'asc' },
  { field: 'created_at', label: 'Created At', firstOrder: 'desc' },
  { field: 'last_login', label: 'Last Login', firstOrder: 'desc' },
  { field: 'total_time_spent', label: 'Total Time', firstOrder: 'desc' },
];

function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/** /admin User Management: search, sort and page through users, change roles, open a user. */
export function UsersSection() {
  const [search, setSearch] = useState('');
  const query = useDebounced(search.trim(), SEARCH_DELAY_MS);
  const [sort, setSort] = useState<{ field: UserSortField; order: SortOrder }>({
    field: 'created_at',
    order: 'desc',
  });
  const [page, setPage] = useState(1);
  const [result, setResult] = useState<UserPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [roleError, setRoleError] = useState<string | null>(null);
  const searchId = useId();

  useEffect(() => {
    const controller = new AbortController();
    listUsers(
      { q: query, sort: sort.field, order: sort.order, page, pageSize: USER_PAGE_SIZE_DEFAULT },
      controller.signal,
    ).then(
      (loaded) => {
        setResult(loaded);
        setError(null);
      },
      (caught: unknown) => {
        if (controller.signal.aborted) {
          return;
        }
        console.warn(USERS_ERROR, caught);
        setError(serverMessageOr(caught, USERS_ERROR));
      },
    );
    return () => controller.abort();
  }, [query, sort, page]);

  const handleSort = (column: Column) => {
    setPage(1);
    setSort((current) =>
      current.field === column.field
        ? { field: column.field, order: current.order === 'asc' ? 'desc' : 'asc' }
        : { field: column.field, order: column.firstOrder },
    );
  };

  const [roleNotice, setRoleNotice] = useState<string | null>(null);

  const handleRoleChanged = (userId: string, role: Role) => {
    const changed = result?.users.find((user) => user.id === userId);
    setRoleNotice(changed ? `${changed.username} is now ${ROLE_LABELS[role]}.` : null);
    setResult((current) =>
      current
        ? {
            ...current,
            users: current.users.map((user) => (user.id === userId ? { ...user, role } : user)),
          }
        : current,
    );
  };

  const pageCount = result ? Math.max(1, Math.ceil(result.total / USER_PAGE_SIZE_DEFAULT)) : 1;

  return (
    <section className="admin-section" aria-labelledby="user-management-title">
      <h2 id="user-management-title">User Management</h2>
      <div className="users-toolbar">
        <div className="form__field users-toolbar__search">
          <label htmlFor={searchId}>Search users</label>
          <input
            id={searchId}
            type="search"
            value={search}
            placeholder="Username"
            autoComplete="off"
            onChange={(event) => {
              setSearch(event.target.value);
              setPage(1);
            }}
          />
        </div>
        <p className="admin-muted users-toolbar__count" aria-live="polite">
          {result
            ? `${result.total.toLocaleString()} ${result.total === 1 ? 'user' : 'users'}`
            : ''}
        </p>
      </div>
      {error ? <ErrorAlert message={error} /> : null}
      {roleNotice ? (
        <p className="notice notice--success" role="status">
          {roleNotice}
        </p>
      ) : null}
      {roleError ? (
        <div className="alert alert--error" role="alert">
          <p className="alert__message">{roleError}</p>
          <button
            type="button"
            className="button button--ghost alert__close"
            onClick={() => setRoleError(null)}
          >
            Close
          </button>
        </div>
      ) : null}
      {result === null ? (
        error ? null : (
          <p className="admin-muted">Loading...</p>
        )
      ) : (
        <>
          <ResponsiveTable
            labelledBy="user-management-title"
            regionClassName="admin-panel"
            className="users-table"
            caption={
              <>
                Users, sorted by {COLUMNS.find((column) => column.field === sort.field)?.label}{' '}
                {sort.order === 'asc' ? 'ascending' : 'descending'}
              </>
            }
          >
            <thead>
              <tr>
                {COLUMNS.map((column) => (
                  <SortableHeader
                    key={column.field}
                    column={column}
                    sortOrder={sort.field === column.field ? sort.order : null}
                    onSort={() => handleSort(column)}
                  />
                ))}
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {result.users.length === 0 ? (
                <tr>
                  <td colSpan={COLUMNS.length + 1} className="admin-muted">
                    No users found.
                  </td>
                </tr>
              ) : (
                result.users.map((user) => (
                  <UserRow
                    key={user.id}
                    user={user}
                    onRoleChanged={handleRoleChanged}
                    onRoleError={(message) => {
                      setRoleError(message);
                      setRoleNotice(null);
                    }}
                  />
                ))
              )}
            </tbody>
          </ResponsiveTable>
          <nav className="pagination" aria-label="User pages">
            <button
              type="button"
              className="button button--secondary"
              disabled={page <= 1}
              onClick={() => setPage((current) => Math.max(1, current - 1))}
            >
              Previous
            </button>
            <span>
              Page {Math.min(page, pageCount)} of {pageCount}
            </span>
            <button
              type="button"
              className="button button--secondary"
              disabled={page >= pageCount}
              onClick={() => setPage((current) => current + 1)}
            >
              Next
            </button>
          </nav>
        </>
      )}
    </section>
  );
}

function SortableHeader({
  column,
  sortOrder,
  onSort,
}: {
  column: Column;
  sortOrder: SortOrder | null;
  onSort: () => void;
}) {
  const ariaSort = sortOrder === null ? 'none' : sortOrder === 'asc' ? 'ascending' : 'descending';
  return (
    <th scope="col" aria-sort={ariaSort}>
      <button type="button" className="sort-button" onClick={onSort}>
        {column.label}
        <span className="sort-button__icon" aria-hidden="true">
          {sortOrder === null ? '↕' : sortOrder === 'asc' ? '▲' : '▼'}
        </span>
      </button>
    </th>
  );
}

function UserRow({
  user,
  onRoleChanged,
  onRoleError,
}: {
  user: UserSummary;
  onRoleChanged: (userId: string, role: Role) => void;
  onRoleError: (message: string | null) => void;
}) {
  const [isSaving, setIsSaving] = useState(false);
  // the role picked in the dropdown, waiting for the admin to confirm it
  const [pendingRole, setPendingRole] = useState<Role | null>(null);

  const handleRoleChange = async (role: Role) => {
    setIsSaving(true);
    onRoleError(null);
    try {
      // the row shows the role the server answers, not the one picked
      onRoleChanged(user.id, await updateRole(user.id, role));
    } catch (caught) {
      console.warn(ROLE_ERROR, caught);
      onRoleError(serverMessageOr(caught, ROLE_ERROR));
    } finally {
      setIsSaving(false);
      setPendingRole(null);
    }
  };

  return (
    <tr>
      <th scope="row">{user.username}</th>
      <Cell label="Role">
        <select
          className="role-select"
          aria-label={`Role of ${user.username}`}
          value={user.role}
          disabled={isSaving}
          onChange={(event) => {
            const role = ROLES.find((candidate) => candidate === event.target.value);
            if (role && role !== user.role) {
              setPendingRole(role);
            }
          }}
        >
          {ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
        <ConfirmDialog
          isOpen={pendingRole !== null}
          title="Change role"
          message={`Change ${user.username}'s role from ${ROLE_LABELS[user.role]} to ${pendingRole ? ROLE_LABELS[pendingRole] : ''}? It applies at their next request.`}
          confirmLabel={isSaving ? 'Changing...' : 'Change role'}
          isBusy={isSaving}
          onConfirm={() => {
            if (pendingRole) {
              void handleRoleChange(pendingRole);
            }
          }}
          onCancel={() => setPendingRole(null)}
        />
      </Cell>
      <Cell label="Created At">
        <time dateTime={user.created_at}>{formatDateTime(user.created_at)}</time>
      </Cell>
      <Cell label="Last Login">
        {user.last_login ? (
          <time dateTime={user.last_login}>{formatDateTime(user.last_login)}</time>
        ) : (
          'Never'
        )}
      </Cell>
      <Cell label="Total Time">{formatDuration(user.total_time_spent)}</Cell>
      <td className="users-table__actions">
        <Link
          to={`/admin/users/${user.id}`}
          className="button button--secondary button--small"
          aria-label={`View Details for ${user.username}`}
        >
          View Details
        </Link>
      </td>
    </tr>
  );
}
