/**
 * Publishes a game build from a terminal or a build script, as itch.io's butler does:
 *   npm run games:publish -- <gameId> <build.zip> [--site URL] [--token TOKEN] [--no-activate]
 * It streams the zip to PUT /api/admin/games/<gameId>/build and prints the new version and
 * what the site detected. The token and site may come from GAMES_PUBLISH_TOKEN and SITE_URL.
 */
import {
  describeResult,
  megabytes,
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
  let shown = -1;
  const result = await publishBuild({
    ...request,
    onProgress(sent, total) {
      const percent = Math.floor((sent / Math.max(total, 1)) * 100);
      if (process.stderr.isTTY && percent !== shown) {
        shown = percent;
        process.stderr.write(`\rUploading ${megabytes(sent)} of ${megabytes(total)} (${percent}%)`);
      }
    },
  });
  if (shown >= 0) {
    process.stderr.write('\n');
  }
  console.log(describeResult(result));
}

main().catch((error: unknown) => {
  console.error(error instanceof PublishError ? error.message : error);
  process.exitCode = 1;
});
