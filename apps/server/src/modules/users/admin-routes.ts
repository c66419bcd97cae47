import { type RequestHandler, Router } from 'express';
import { z } from 'zod';

import {
  type MessageResponse,
  TOTAL_COUNT_HEADER,
  UpdateGrantRequest,
  type UpdateGrantResponse,
  UpdateRoleRequest,
  type UpdateRoleResponse,
  type UserDetail,
  UserId,
  type UserList,
  UserListQuery,
} from '@portfolio/types';

import { parseInput } from '../../lib/validate.js';
import { requireAdmin, sessionOf } from '../../access/policies.js';
import { userNotFound } from '../../lib/errors.js';
import type { AdminUsersService } from './admin-service.js';

/**
 * The user a path names. An id that cannot be a user's names no one, as an unknown one does: both
 * are 404 'No such user' (a 400 about the id's format told the admin nothing they could act on).
 */
function userIdOf(params: unknown): string {
  const result = z.object({ userId: UserId }).safeParse(params);
  if (!result.success) {
    throw userNotFound();
  }
  return result.data.userId;
}

/**
 * The admin's user management: GET /users, GET and DELETE /users/:userId, PUT
 * /users/:userId/subscription-grant, POST /update-role.
 */
export function createAdminUsersRouter(deps: { adminUsers: AdminUsersService }): Router {
  const { adminUsers } = deps;
  const router = Router();
  // answers about other people's accounts: no browser or proxy may keep a copy
  const noStore: RequestHandler = (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  };
  router.use(['/users', '/update-role'], noStore);

  router.get('/users', requireAdmin, async (req, res) => {
    const query = parseInput(UserListQuery, req.query);
    const { users, total } = await adminUsers.listUsers(query);
    res.set(TOTAL_COUNT_HEADER, String(total)).json(users satisfies UserList);
  });

  router.get('/users/:userId', requireAdmin, async (req, res) => {
    const userId = userIdOf(req.params);
    res.json((await adminUsers.getUser(userId)) satisfies UserDetail);
  });

  router.delete('/users/:userId', requireAdmin, async (req, res) => {
    const userId = userIdOf(req.params);
    await adminUsers.deleteUser(sessionOf(req).user, userId);
    res.json({ message: 'User deleted successfully' } satisfies MessageResponse);
  });

  router.put('/users/:userId/subscription-grant', requireAdmin, async (req, res) => {
    const userId = userIdOf(req.params);
    const input = parseInput(UpdateGrantRequest, req.body);
    const grant = await adminUsers.setGrantEnd(sessionOf(req).user, userId, input);
    res.json({
      message: grant.ends_at ? 'End date saved' : 'End date removed',
      subscription_grant: grant,
    } satisfies UpdateGrantResponse);
  });

  router.post('/update-role', requireAdmin, async (req, res) => {
    const input = parseInput(UpdateRoleRequest, req.body);
    const user = await adminUsers.changeRole(sessionOf(req).user, input);
    res.json({ message: 'Role updated successfully', user } satisfies UpdateRoleResponse);
  });

  return router;
}
