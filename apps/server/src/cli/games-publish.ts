/**
 * Publishes a game build from a terminal or a build script, as itch.io's butler does:
 *   GAMES_PUBLISH_TOKEN=<token> npm run games:publish -- <gameId> <build.zip> [--site URL] [--no-activate]
 * It streams the zip to PUT /api/admin/games/<gameId>/build and prints the new version and
 * what the site detected. Without GAMES_PUBLISH_TOKEN (or --token, which lands in CI logs) it
 * asks for the token on the terminal, without echo. The site may come from SITE_URL.
 */
import { formatBytes } from '@portfolio/types/format';

import { moduleLogger } from '../lib/logger.js';

import {
  askToken,
  describeResult,
  NO_TOKEN,
  parseArguments,
  publishBuild,
  PublishError,
} from './publish-client.js';

async function main(): Promise<void> {
  // npm runs the script in apps/server: the zip's path is relative to where npm was started
  const request = parseArguments(
    process.argv.slice(2),
    process.env,
    process.env.INIT_CWD ?? process.cwd(),
  );
  if (!request.token) {
    if (!process.stdin.isTTY) {
      throw new PublishError(NO_TOKEN);
    }
    request.token = await askToken({ input: process.stdin, output: process.stderr });
    if (!request.token) {
      throw new PublishError(NO_TOKEN);
    }
  }
  let shown = -1;
  const result = await publishBuild({
    ...request,
    onProgress(sent, total) {
      const percent = Math.floor((sent / Math.max(total, 1)) * 100);
      if (process.stderr.isTTY && percent !== shown) {
        shown = percent;
        process.stderr.write(
          `\rUploading ${formatBytes(sent)} of ${formatBytes(total)} (${percent}%)`,
        );
      }
    },
  });
  if (shown >= 0) {
    process.stderr.write('\n');
  }
  console.log(describeResult(result));
}

main().catch((error: unknown) => {
  if (error instanceof PublishError) {
    console.error(error.message);
  } else {
    moduleLogger('games:publish').fatal({ err: error }, 'failed');
  }
  process.exitCode = 1;
});
