import {
  ROLES,
  type Role,
  type SortOrder,
  USER_PAGE_SIZE_DEFAULT,
  type UserSortField,
  type UserSummary,
} from '@portfolio/types';
import { useCallback, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';

import { formatDateTime, formatDuration } from '../../lib/format';
import { serverMessageOr } from '../../lib/server-message';
import { ConfirmDialog } from '../../ui/confirm-dialog';
import { Cell, ResponsiveTable } from '../../ui/responsive-table';
import { listUsers, updateRole, type UserPage } from './users-api';
import { ErrorAlert } from '../../ui/error-alert';
import { FormField } from '../../ui/form-field';
import { useResource } from '../../ui/use-resource';

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
  const [sort, setSort] = useState<Sort>({ field: 'created_at', order: 'desc' });
  const [page, setPage] = useState(1);
  const [roleError, setRoleError] = useState<string | null>(null);
  const [roleNotice, setRoleNotice] = useState<string | null>(null);
  const searchId = useId();
  const load = useCallback(
    (signal: AbortSignal) =>
      listUsers(
        { q: query, sort: sort.field, order: sort.order, page, pageSize: USER_PAGE_SIZE_DEFAULT },
        signal,
      ),
    [query, sort, page],
  );
  // the table stays while the next page or search loads
  const users = useResource(load, USERS_ERROR, { isKeptWhileLoading: true });
  const result = users.data ?? null;

  const handleSort = (column: Column) => {
    setPage(1);
    setSort((current) =>
      current.field === column.field
        ? { field: column.field, order: current.order === 'asc' ? 'desc' : 'asc' }
        : { field: column.field, order: column.firstOrder },
    );
  };

  const handleRoleChanged = (userId: string, role: Role) => {
    const changed = result?.users.find((user) => user.id === userId);
    setRoleNotice(changed ? `${changed.username} is now ${ROLE_LABELS[role]}.` : null);
    users.setData((current) =>
      current
        ? {
            ...current,
            users: current.users.map((user) => (user.id === userId ? { ...user, role } : user)),
          }
        : current,
    );
  };

  return (
    <section className="admin-section" aria-labelledby="user-management-title">
      <h2 id="user-management-title">User Management</h2>
      <div className="users-toolbar">
        <FormField
          id={searchId}
          label="Search users"
          fieldClassName="users-toolbar__search"
          type="search"
          value={search}
          placeholder="Username"
          autoComplete="off"
          onValueChange={(value) => {
            setSearch(value);
            setPage(1);
          }}
        />
        <p className="admin-muted users-toolbar__count" aria-live="polite">
          {result
            ? `${result.total.toLocaleString()} ${result.total === 1 ? 'user' : 'users'}`
            : ''}
        </p>
      </div>
      {users.error ? <ErrorAlert message={users.error} /> : null}
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
        users.error ? null : (
          <p className="admin-muted">Loading...</p>
        )
      ) : (
        <UsersTable
          result={result}
          sort={sort}
          page={page}
          onSort={handleSort}
          onPage={setPage}
          onRoleChanged={handleRoleChanged}
          onRoleError={(message) => {
            setRoleError(message);
            setRoleNotice(null);
          }}
        />
      )}
    </section>
  );
}

interface Sort {
  field: UserSortField;
  order: SortOrder;
}

interface UsersTableProps {
  result: UserPage;
  sort: Sort;
  page: number;
  onSort: (column: Column) => void;
  onPage: (page: number) => void;
  onRoleChanged: (userId: string, role: Role) => void;
  onRoleError: (message: string | null) => void;
}

/** One page of users with sortable headers, and the page buttons under it. */
function UsersTable({
  result,
  sort,
  page,
  onSort,
  onPage,
  onRoleChanged,
  onRoleError,
}: UsersTableProps) {
  const pageCount = Math.max(1, Math.ceil(result.total / USER_PAGE_SIZE_DEFAULT));
  return (
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
                onSort={() => onSort(column)}
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
                onRoleChanged={onRoleChanged}
                onRoleError={onRoleError}
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
          onClick={() => onPage(Math.max(1, page - 1))}
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
          onClick={() => onPage(page + 1)}
        >
          Next
        </button>
      </nav>
    </>
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
