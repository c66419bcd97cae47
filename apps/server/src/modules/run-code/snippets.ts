import { createHash } from 'node:crypto';

import { eq } from 'drizzle-orm';

import type { CppStandard, OptimizationLevel, RunCodeInput, Snippet } from '@portfolio/types';

import type { Db } from '../../db/client.js';
import { codeSnippets } from '../../db/schema.js';
import { notFound } from '../../lib/errors.js';

export type SnippetContent = RunCodeInput;

/**
 * Id lengths tried in turn: 12 URL-safe characters (72 bits) keep links short; a longer prefix of
 * the same hash is used only if a different snippet already holds the shorter one.
 */
const ID_LENGTHS = [12, 16, 22, 32] as const;

/** Line endings and a trailing newline do not make a different snippet. */
function normalise(content: SnippetContent): SnippetContent {
  const text = (value: string) => value.replace(/\r\n?/g, '\n');
  return {
    code: `${text(content.code).trimEnd()}\n`,
    stdin: text(content.stdin),
    standard: content.standard,
    optimization: content.optimization,
  };
}

function contentHash(content: SnippetContent): string {
  return createHash('sha256')
    .update(JSON.stringify([content.code, content.stdin, content.standard, content.optimization]))
    .digest('base64url');
}

type SnippetRow = typeof codeSnippets.$inferSelect;

const sameContent = (row: SnippetRow, content: SnippetContent) =>
  row.code === content.code &&
  row.stdin === content.stdin &&
  row.standard === content.standard &&
  row.optimization === content.optimization;

const snippetUrl = (id: string) => `/Tutorials?snippet=${id}`;

function present(row: SnippetRow): Snippet {
  return {
    id: row.id,
    code: row.code,
    stdin: row.stdin,
    standard: row.standard as CppStandard,
    optimization: row.optimization as OptimizationLevel,
    url: snippetUrl(row.id),
    createdAt: row.createdAt.toISOString(),
  };
}

export interface SnippetsService {
  /** Stores a snippet; `isNew` is false when the same content was shared before. */
  share(content: SnippetContent): Promise<{ snippet: Snippet; isNew: boolean }>;
  /** A stored snippet, or 404. */
  get(id: string): Promise<Snippet>;
}

/** Shared code-box snippets, one row per distinct content. */
export function createSnippetsService(deps: { db: Db }): SnippetsService {
  const { db } = deps;

  async function find(id: string): Promise<SnippetRow | undefined> {
    const [row] = await db.select().from(codeSnippets).where(eq(codeSnippets.id, id));
    return row;
  }

  return {
    async share(input) {
      const content = normalise(input);
      const hash = contentHash(content);
      for (const length of ID_LENGTHS) {
        const id = hash.slice(0, length);
        const [inserted] = await db
          .insert(codeSnippets)
          .values({ id, ...content })
          .onConflictDoNothing()
          .returning();
        if (inserted) {
          return { snippet: present(inserted), isNew: true };
        }
        const existing = await find(id);
        if (existing && sameContent(existing, content)) {
          return { snippet: present(existing), isNew: false };
        }
      }
      // 256 bits that differ from a stored snippet's in their first 192: not a real case
      throw new Error('snippet id collision');
    },

    async get(id) {
      const row = await find(id);
      if (!row) {
        throw notFound('No snippet with this id: the link may be mistyped.');
      }
      return present(row);
    },
  };
}
