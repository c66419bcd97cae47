import type { GameBuild } from '@portfolio/types/game-host';

import { ENGINE_LABELS, formatBytes } from './game-labels';

/** What the threaded build needs of the scripts it loads (the browser's rule, not the site's). */
export const THREADS_NOTE =
  'Yes: the viewer opens it cross-origin isolated. Under isolation the browser loads a script or file from another site (a CDN) only when that site allows it (CORS or Cross-Origin-Resource-Policy); files in the build itself always load.';

/** What the server detected in a build: engine, start page, files, sizes, threads, left out. */
export function BuildFacts({ build }: { build: GameBuild }) {
  return (
    <dl className="details build-facts">
      <dt>Engine</dt>
      <dd>{ENGINE_LABELS[build.engine]}</dd>
      <dt>Start page</dt>
      <dd>
        <code>{build.entry}</code>
      </dd>
      <dt>Files</dt>
      <dd>{build.files}</dd>
      <dt>Size</dt>
      <dd>{formatBytes(build.bytes)}</dd>
      <dt>Compressed size</dt>
      <dd>{formatBytes(build.compressedBytes)}</dd>
      <dt>Needs threads</dt>
      <dd>{build.needsThreads ? THREADS_NOTE : 'No'}</dd>
      {build.leftOut.length > 0 ? (
        <>
          <dt>Left out</dt>
          <dd>
            <p className="build-facts__note">
              Not published: no browser needs them (desktop executables and libraries, files a Mac
              or Windows leaves in a zip).
            </p>
            <ul className="build-facts__left-out" aria-label="Files left out">
              {build.leftOut.map((file) => (
                <li key={file}>
                  <code>{file}</code>
                </li>
              ))}
            </ul>
          </dd>
        </>
      ) : null}
    </dl>
  );
}
