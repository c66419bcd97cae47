import type { z } from 'zod';

import { badRequest, describeZodError } from './errors.js';

/** Parses a request part with a shared schema; the first issue becomes a 400. */
export function parseInput<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) {
    throw badRequest(describeZodError(result.error));
  }
  return result.data;
}
