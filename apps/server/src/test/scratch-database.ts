/** Throwaway PostgreSQL databases for benchmarks and the tests that need a database of their own. */

export interface ScratchDatabase {
  /** DATABASE_URL of the new, empty database. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A new empty database on the server DATABASE_URL points at, so a benchmark never writes into a
 * database that tests or people use. Dropped by `drop()` (forcefully: pools may still be open).
 */
export async function createScratchDatabase(
  baseUrl: string,
  prefix: string,
): Promise<ScratchDatabase> {
  const { default: pg } = await import('pg');
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: baseUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => run(`drop database if exists "${name}" with (force)`),
  };
}
