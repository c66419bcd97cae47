import type { GameBuild } from '@portfolio/types/game-host';

import { ENGINE_LABELS, formatBytes } from './game-labels';

/** What the server detected in a build: engine, start page, files, sizes, threads. */
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
      <dd>{build.needsThreads ? 'Yes (the viewer opens it cross-origin isolated)' : 'No'}</dd>
    </dl>
  );
}
