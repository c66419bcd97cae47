/**
 * The client side of `npm run games:publish` (cli/games-publish.ts): arguments, the streamed
 * upload (the same request as the README's curl line) and the summary it prints.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';

import { formatBytes } from '@portfolio/types/format';
import { GameBuildResponse } from '@portfolio/types/game-host';

export const USAGE = `Usage: GAMES_PUBLISH_TOKEN=<token> npm run games:publish -- <gameId> <build.zip> [--site URL] [--no-activate]

Uploads the zip as the game's next version and makes it live (--no-activate: uploaded, not live).
The token is an admin API token from the admin's Games section: from GAMES_PUBLISH_TOKEN, else
asked for in the terminal (not shown as it is typed). --token TOKEN works too, but a command
line lands in shell history and CI logs.
  --site   the site's address (default: $SITE_URL, else http://localhost:3000)`;

/** What the command says when it has no token and no terminal to ask for one in. */
export const NO_TOKEN =
  'No token: set GAMES_PUBLISH_TOKEN (make one in the admin Games section), or run the command in a terminal to be asked for it.';

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

/** What the command prints for a published build. */
export function describeResult({ game, build }: GameBuildResponse): string {
  return [
    `Published ${game.id} version ${build.version}${build.isLive ? ' (live)' : ' (uploaded, not live)'}`,
    `  engine:     ${build.engine}${build.needsThreads ? ', needs threads (cross-origin isolated)' : ''}`,
    ...(build.needsThreads
      ? [
          '              (files it loads from other sites need CORS or Cross-Origin-Resource-Policy)',
        ]
      : []),
    `  start page: ${build.entry}`,
    `  files:      ${build.files}, ${formatBytes(build.bytes)} (${formatBytes(build.compressedBytes)} compressed)`,
    ...(build.leftOut.length > 0
      ? [`  left out:   ${build.leftOut.join(', ')} (no browser needs them)`]
      : []),
    ...(build.isLive && !game.published
      ? ['  not shown:  the game is unpublished: publish it on /admin/games to show it']
      : []),
    ...(build.isLive && game.playUrl ? [`  play:       ${game.playUrl}`] : []),
  ].join('\n');
}

/**
 * The command line and environment, read. `token` is empty when neither GAMES_PUBLISH_TOKEN nor
 * --token gave one: the command then asks for it (askToken) or stops with NO_TOKEN.
 */
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
  return { site, token, gameId, file: path.resolve(cwd, file), activate };
}

/** The terminal a token is asked for in: stdin in raw mode (no echo), a prompt on stderr. */
export interface TokenTerminal {
  input: NodeJS.ReadStream;
  output: NodeJS.WritableStream;
}

/**
 * Asks for the token without echoing it (the terminal in raw mode, nothing written back as it is
 * typed); Enter ends it, Ctrl-C cancels, Backspace deletes. A pasted token with its newline works.
 */
export function askToken({ input, output }: TokenTerminal): Promise<string> {
  // echo off before the prompt shows: a token typed (or sent) at once is never shown
  input.setRawMode(true);
  input.setEncoding('utf8');
  input.resume();
  output.write('Admin API token (not shown): ');
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      input.off('data', handleData);
      input.setRawMode(false);
      input.pause();
      output.write('\n');
    };
    function handleData(chunk: string) {
      for (const char of chunk) {
        if (char === '\r' || char === '\n' || char === '\u0004') {
          finish();
          resolve(value.trim());
          return;
        }
        if (char === '\u0003') {
          finish();
          reject(new PublishError('Cancelled.'));
          return;
        }
        if (char === '\u007f' || char === '\b') {
          value = value.slice(0, -1);
        } else {
          value += char;
        }
      }
    }
    input.on('data', handleData);
  });
}
