import type { sql } from 'drizzle-orm';

import type { Db } from './client.js';

/** Rows of a raw `db.execute` on either driver (pg answers a result, PGlite too, both `.rows`). */
export async function rowsOf<T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}
