/**
 * The client side of `npm run games:publish` (cli/games-publish.ts): arguments, the streamed
 * upload (the same request as the README's curl line) and the summary it prints.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';

import { GameBuildResponse } from '@portfolio/types/game-host';

export const USAGE = `Usage: npm run games:publish -- <gameId> <build.zip> [--site URL] [--token TOKEN] [--no-activate]

Uploads the zip as the game's next version and makes it live (--no-activate: uploaded, not live).
  --site   the site's address (default: $SITE_URL, else http://localhost:3000)
  --token  an admin API token from the admin's Games section (default: $GAMES_PUBLISH_TOKEN)`;

/** A problem the person running the command can fix; printed without a stack trace. */
export class PublishError extends Error {}

export interface PublishRequest {
  site: string;
  token: string;
  gameId: string;
  file: string;
  activate: boolean;
  /** Bytes sent so far, of the total. */
  onProgress?: (sent: number, total: number) => void;
}

/** Streams the zip to the site; resolves with its answer, rejects with its error message. */
export async function publishBuild(request: PublishRequest): Promise<GameBuildResponse> {
  let url: URL;
  try {
    url = new URL(
      `/api/admin/games/${encodeURIComponent(request.gameId)}/build${request.activate ? '' : '?activate=false'}`,
      request.site,
    );
  } catch {
    throw new PublishError(`--site: '${request.site}' is not a URL`);
  }
  const size = await stat(request.file).then(
    (stats) => stats.size,
    () => {
      throw new PublishError(`${request.file}: no such file`);
    },
  );
  const client = url.protocol === 'https:' ? https : http;
  const { status, body } = await new Promise<{ status: number; body: string }>(
    (resolve, reject) => {
      const req = client.request(
        url,
        {
          method: 'PUT',
          headers: {
            'content-type': 'application/zip',
            'content-length': size,
            authorization: `Bearer ${request.token}`,
            accept: 'application/json',
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', (error) =>
        reject(new PublishError(`Could not reach ${url.origin}: ${error.message}`)),
      );
      let sent = 0;
      const file = createReadStream(request.file);
      file.on('data', (chunk) => {
        sent += chunk.length;
        request.onProgress?.(sent, size);
      });
      file.on('error', reject);
      file.pipe(req);
    },
  );
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    throw new PublishError(
      `The site answered ${status} without the API's JSON: ${body.slice(0, 200)}`,
    );
  }
  if (status !== 201) {
    const message =
      typeof parsed === 'object' &&
      parsed !== null &&
      'error' in parsed &&
      typeof parsed.error === 'object' &&
      parsed.error !== null &&
      'message' in parsed.error
        ? String(parsed.error.message)
        : body.slice(0, 200);
    throw new PublishError(`The site refused the build (${status}): ${message}`);
  }
  return GameBuildResponse.parse(parsed);
}

export const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** What the command prints for a published build. */
export function describeResult({ game, build }: GameBuildResponse): string {
  return [
    `Published ${game.id} version ${build.version}${build.isLive ? ' (live)' : ' (uploaded, not live)'}`,
    `  engine:     ${build.engine}${build.needsThreads ? ', needs threads (cross-origin isolated)' : ''}`,
    `  start page: ${build.entry}`,
    `  files:      ${build.files}, ${megabytes(build.bytes)} (${megabytes(build.compressedBytes)} compressed)`,
    ...(build.isLive && game.playUrl ? [`  play:       ${game.playUrl}`] : []),
  ].join('\n');
}

export function parseArguments(
  args: readonly string[],
  env: Record<string, string | undefined>,
  cwd: string,
): Omit<PublishRequest, 'onProgress'> {
  const positional: string[] = [];
  let site = env.SITE_URL || 'http://localhost:3000';
  let token = env.GAMES_PUBLISH_TOKEN ?? '';
  let activate = true;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index] ?? '';
    const value = () => {
      const next = args[++index];
      if (next === undefined) {
        throw new PublishError(`${arg} needs a value\n\n${USAGE}`);
      }
      return next;
    };
    if (arg === '--site') {
      site = value();
    } else if (arg.startsWith('--site=')) {
      site = arg.slice('--site='.length);
    } else if (arg === '--token') {
      token = value();
    } else if (arg.startsWith('--token=')) {
      token = arg.slice('--token='.length);
    } else if (arg === '--no-activate') {
      activate = false;
    } else if (arg === '--help' || arg === '-h') {
      throw new PublishError(USAGE);
    } else if (arg.startsWith('--')) {
      throw new PublishError(`Unknown option ${arg}\n\n${USAGE}`);
    } else {
      positional.push(arg);
    }
  }
  const [gameId, file] = positional;
  if (!gameId || !file || positional.length > 2) {
    throw new PublishError(USAGE);
  }
  if (!token) {
    throw new PublishError(
      'No token: pass --token or set GAMES_PUBLISH_TOKEN (make one in the admin Games section).',
    );
  }
  return { site, token, gameId, file: path.resolve(cwd, file), activate };
}
