import type { AdminGame } from '@portfolio/types/game-host';
import { useState } from 'react';

import { formatDateTime } from '../../lib/format';
import { activateBuild } from './admin-games-api';
import { messageOf } from './admin-games-store';
import { BuildFacts } from './build-facts';

export const ACTIVATE_ERROR = 'Failed to make the version live';

interface BuildVersionsProps {
  game: AdminGame;
  /** Called after a version went live (the page reloads the game). */
  onChanged: () => Promise<void>;
}

/** Every uploaded version, newest first, with the live one marked and a one-click "Make live". */
export function BuildVersions({ game, onChanged }: BuildVersionsProps) {
  const [busyVersion, setBusyVersion] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const builds = [...game.builds].sort((a, b) => b.version - a.version);

  const handleActivate = async (version: number) => {
    setBusyVersion(version);
    setError(null);
    setStatus(null);
    try {
      await activateBuild(game.id, version);
      await onChanged();
      setStatus(`Version ${version} is live`);
    } catch (failure) {
      console.warn(ACTIVATE_ERROR, failure);
      setError(messageOf(failure, ACTIVATE_ERROR));
    } finally {
      setBusyVersion(null);
    }
  };

  return (
    <>
      <div role="alert">{error ? <p className="alert alert--error">{error}</p> : null}</div>
      <p role="status" className="form__hint form__hint--ok">
        {status}
      </p>
      {builds.length === 0 ? (
        <p className="admin-muted">No build uploaded yet.</p>
      ) : (
        <ol className="version-list" reversed>
          {builds.map((build) => (
            <li key={build.version} className="version-list__item">
              <div className="version-list__header">
                <h3>Version {build.version}</h3>
                {build.isLive ? (
                  <span className="status-badge status-badge--green">Live</span>
                ) : (
                  <button
                    type="button"
                    className="button button--secondary button--small"
                    onClick={() => void handleActivate(build.version)}
                    disabled={busyVersion !== null}
                    aria-label={`Make version ${build.version} live`}
                  >
                    {busyVersion === build.version ? 'Making live...' : 'Make live'}
                  </button>
                )}
              </div>
              <p className="admin-muted version-list__meta">
                Uploaded <time dateTime={build.uploadedAt}>{formatDateTime(build.uploadedAt)}</time>{' '}
                by {build.uploadedBy}
              </p>
              <details className="version-list__facts">
                <summary>Details</summary>
                <BuildFacts build={build} />
              </details>
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
