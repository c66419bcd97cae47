import {
  MessageResponse,
  type Role,
  TOTAL_COUNT_HEADER,
  UpdateGrantResponse,
  UpdateRoleResponse,
  UserDetail,
  UserList,
  type UserListParams,
  type UserSummary,
} from '@portfolio/types';

import { http, request, requestWithHeaders } from '../../lib/http';

export interface UserPage {
  users: UserSummary[];
  /** Users matching the search on every page. */
  total: number;
}

/** One page of the user table: GET /api/users with the search, sort and page as query parameters. */
export async function listUsers(params: UserListParams, signal?: AbortSignal): Promise<UserPage> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') {
      query.set(key, String(value));
    }
  }
  const { data, headers } = await requestWithHeaders('GET', `/api/users?${query.toString()}`, {
    schema: UserList,
    ...(signal ? { signal } : {}),
  });
  const total = Number(headers.get(TOTAL_COUNT_HEADER));
  return { users: data, total: Number.isFinite(total) ? total : data.length };
}

export function getUser(userId: string, signal?: AbortSignal): Promise<UserDetail> {
  return http.get(`/api/users/${encodeURIComponent(userId)}`, UserDetail, signal);
}

export function deleteUser(userId: string): Promise<MessageResponse> {
  return http.delete(`/api/users/${encodeURIComponent(userId)}`, MessageResponse);
}

/** Sets when the subscription an admin granted ends (an ISO date and time), or null for never. */
export function setGrantEnd(userId: string, endsAt: string | null): Promise<UpdateGrantResponse> {
  return request('PUT', `/api/users/${encodeURIComponent(userId)}/subscription-grant`, {
    body: { ends_at: endsAt },
    schema: UpdateGrantResponse,
  });
}

/** Changes a user's role; answers the role the server now holds. */
export async function updateRole(userId: string, role: Role): Promise<Role> {
  const { user } = await http.post('/api/update-role', { userId, role }, UpdateRoleResponse);
  return user.role;
}
