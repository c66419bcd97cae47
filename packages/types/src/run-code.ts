import { z } from 'zod';

/** The largest C++ source `POST /run-code` accepts, in bytes of UTF-8; larger sources get a 413. */
export const RUN_CODE_MAX_SOURCE_BYTES = 64 * 1024;

/** `POST /run-code` body: one C++ translation unit. */
export const RunCodeRequest = z.object({
  code: z.string().min(1, 'is required'),
});
export type RunCodeRequest = z.infer<typeof RunCodeRequest>;

/**
 * `POST /run-code` answer. `output` holds the compiler's messages when the compile fails, else
 * the program's standard output and error. `exitCode` is null when the program was killed (time
 * limit, signal) or never ran. `truncated` says the output was cut at the limit (with a notice).
 */
export const RunCodeResponse = z.object({
  output: z.string(),
  exitCode: z.number().int().nullable(),
  timedOut: z.boolean(),
  truncated: z.boolean(),
});
export type RunCodeResponse = z.infer<typeof RunCodeResponse>;
