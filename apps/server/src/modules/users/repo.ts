import { eq, sql } from 'drizzle-orm';

import type { Role } from '@portfolio/types';

import type { Db } from '../../db/client.js';
import { type StoredDeviceInfo, users } from '../../db/schema.js';

export type UserRow = typeof users.$inferSelect;

/** Data access for users; the only module that writes the users table's account fields. */
export function createUsersRepo(db: Db) {
  return {
    async findByUsername(username: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(sql`lower(${users.username}) = lower(${username})`)
        .limit(1);
      return row;
    },

    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
      return row;
    },

    async insert(values: {
      username: string;
      email: string | null;
      passwordHash: string;
      role?: Role;
    }): Promise<UserRow> {
      const [row] = await db.insert(users).values(values).returning();
      if (!row) {
        throw new Error('insert returned no row');
      }
      return row;
    },

    async recordLogin(id: string, deviceInfo: StoredDeviceInfo): Promise<void> {
      await db.update(users).set({ lastLogin: new Date(), deviceInfo }).where(eq(users.id, id));
    },

    async setRole(id: string, role: Role): Promise<UserRow | undefined> {
      const [row] = await db.update(users).set({ role }).where(eq(users.id, id)).returning();
      return row;
    },

    async setPasswordHash(id: string, passwordHash: string): Promise<void> {
      await db.update(users).set({ passwordHash }).where(eq(users.id, id));
    },

    async count(): Promise<number> {
      const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
      return row?.count ?? 0;
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
