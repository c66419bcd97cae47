import { type SQL, and, asc, desc, eq, ne, sql } from 'drizzle-orm';

import type { Role, SortOrder, UserListQuery, UserSortField } from '@portfolio/types';

import type { Db } from '../../db/client.js';
import { type StoredDeviceInfo, users } from '../../db/schema.js';
import { recordAudit } from '../../access/audit.js';
import { revokeTokensOf } from '../../access/api-tokens.js';

export type UserRow = typeof users.$inferSelect;

/** The columns of a row in the admin's user table. */
const summaryColumns = {
  id: users.id,
  username: users.username,
  role: users.role,
  createdAt: users.createdAt,
  lastLogin: users.lastLogin,
  totalTimeSpent: users.totalTimeSpent,
  subscriptionStatus: users.subscriptionStatus,
  subscriptionEndDate: users.subscriptionEndDate,
  subscriptionGrantedAt: users.subscriptionGrantedAt,
  subscriptionGrantEndsAt: users.subscriptionGrantEndsAt,
};
export type UserSummaryRow = Pick<UserRow, keyof typeof summaryColumns>;

/**
 * ORDER BY for each sort of the user table, written so each is one index scan (see the indexes in
 * schema.ts); the id breaks ties, so pages never overlap.
 */
const ORDERINGS: Record<UserSortField, Record<SortOrder, SQL[]>> = {
  username: {
    asc: [sql`lower(${users.username}) asc`],
    desc: [sql`lower(${users.username}) desc`],
  },
  role: {
    asc: [asc(users.role), sql`lower(${users.username}) asc`],
    desc: [desc(users.role), sql`lower(${users.username}) desc`],
  },
  created_at: {
    asc: [asc(users.createdAt), asc(users.id)],
    desc: [desc(users.createdAt), desc(users.id)],
  },
  last_login: {
    // 'Never' is the oldest: first going up, last going down
    asc: [sql`${users.lastLogin} asc nulls first`, asc(users.id)],
    desc: [sql`${users.lastLogin} desc nulls last`, desc(users.id)],
  },
  total_time_spent: {
    asc: [asc(users.totalTimeSpent), asc(users.id)],
    desc: [desc(users.totalTimeSpent), desc(users.id)],
  },
};

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

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

    /** The account that uses this email (compared as the unique index does). */
    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`)
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

    /** Sets a role directly (tests, seeding); an admin losing the role loses their API tokens. */
    async setRole(id: string, role: Role): Promise<UserRow | undefined> {
      return db.transaction(async (tx) => {
        const [before] = await tx.select().from(users).where(eq(users.id, id)).for('update');
        const [row] = await tx.update(users).set({ role }).where(eq(users.id, id)).returning();
        if (before?.role === 'admin' && role !== 'admin') {
          await revokeTokensOf(tx, id, null, `${before.username} is no longer an admin`);
        }
        return row;
      });
    },

    /** A role change outside the admin pages (admin:create, ADMIN_USERNAME), audited as 'system'. */
    async setRoleAsSystem(user: Pick<UserRow, 'id' | 'username' | 'role'>, role: Role) {
      await db.transaction(async (tx) => {
        await tx.update(users).set({ role }).where(eq(users.id, user.id));
        if (user.role === 'admin' && role !== 'admin') {
          await revokeTokensOf(tx, user.id, null, `${user.username} is no longer an admin`);
        }
        await recordAudit(tx, {
          action: 'role-change',
          actor: null,
          target: user,
          oldValue: user.role,
          newValue: role,
        });
      });
    },

    async setPasswordHash(id: string, passwordHash: string): Promise<void> {
      await db.update(users).set({ passwordHash }).where(eq(users.id, id));
    },

    /** One page of users matching the search, in the asked order, and how many match in all. */
    async list(query: UserListQuery): Promise<{ rows: UserSummaryRow[]; total: number }> {
      const where = query.q
        ? sql`lower(${users.username}) like ${containsPattern(query.q)}`
        : undefined;
      const [rows, [counted]] = await Promise.all([
        db
          .select(summaryColumns)
          .from(users)
          .where(where)
          .orderBy(...ORDERINGS[query.sort][query.order])
          .limit(query.pageSize)
          .offset((query.page - 1) * query.pageSize),
        db
          .select({ count: sql<number>`count(*)::int` })
          .from(users)
          .where(where),
      ]);
      return { rows, total: counted?.count ?? 0 };
    },

    async setMailOptOut(id: string, mailOptOut: boolean): Promise<void> {
      await db.update(users).set({ mailOptOut }).where(eq(users.id, id));
    },

    /**
     * Sets the email; a unique violation (taken by someone else) is the caller's to explain. A
     * different address (not only in letter case) is unconfirmed until its link is followed.
     */
    async setEmail(id: string, email: string): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({
          email,
          emailConfirmedAt: sql`case when lower(${users.email}) = lower(${email}) then ${users.emailConfirmedAt} else null end`,
        })
        .where(eq(users.id, id))
        .returning();
      return row;
    },

    /** Whether another account already uses this email (compared as the unique index does). */
    async isEmailTaken(email: string, exceptId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = lower(${email})`, ne(users.id, exceptId)))
        .limit(1);
      return row !== undefined;
    },

    async count(): Promise<number> {
      const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
      return row?.count ?? 0;
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
